# window, panel and headless renderer: owned by the visualizer work
