# window, panel and headless renderer (GLFW + Dear ImGui + EGL): owned by the visualizer work.
# The GUI code is a static library so the GL tests can link it.
find_package(PkgConfig REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
pkg_check_modules(GLFW REQUIRED IMPORTED_TARGET glfw3)
find_package(OpenGL REQUIRED COMPONENTS EGL)

add_library(nbody_gui STATIC
  gui_viewer.cpp
  gui_logic.cpp
  sim_runner.cpp
  sim_runner_edit.cpp
  sim_runner_monitors.cpp
  viewer_edit.cpp
  gestures.cpp
  startup.cpp
  egl_context.cpp
  headless.cpp
  movie_pipe.cpp
  recorder.cpp
)
find_package(Threads REQUIRED)
target_link_libraries(nbody_gui PUBLIC nbody::render nbody::sim nbody_app_core OpenGL::EGL Threads::Threads
  PRIVATE nlohmann_json::nlohmann_json nbody_warnings)

target_sources(nbody PRIVATE gui_window.cpp gui_panel.cpp panel_widgets.cpp panel_scene.cpp
  panel_physics.cpp panel_display.cpp panel_health.cpp panel_classroom.cpp panel_edit.cpp
  cmd_render.cpp file_browser_ui.cpp)
target_compile_definitions(nbody PRIVATE NBODY_WITH_GUI=1)
target_link_libraries(nbody PRIVATE nbody_gui PkgConfig::IMGUI PkgConfig::GLFW)
