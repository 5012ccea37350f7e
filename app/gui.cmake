# window, panel and headless renderer (GLFW + Dear ImGui + EGL): owned by the visualizer work.
# The GUI code is a static library so the GL tests can link it.
find_package(PkgConfig REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
pkg_check_modules(GLFW REQUIRED IMPORTED_TARGET glfw3)
find_package(OpenGL REQUIRED COMPONENTS EGL)

add_library(nbody_gui STATIC
  window/gui_viewer.cpp
  window/controls.cpp
  window/gui_logic.cpp
  runner/sim_runner.cpp
  runner/sim_runner_edit.cpp
  runner/monitors.cpp
  window/viewer_edit.cpp
  window/viewer_view.cpp
  window/viewer_draw.cpp
  window/gestures.cpp
  window/startup.cpp
  window/egl_context.cpp
  window/headless.cpp
  window/movie_pipe.cpp
  window/recorder.cpp
)
find_package(Threads REQUIRED)
target_link_libraries(nbody_gui PUBLIC nbody::render nbody::sim nbody_app_core OpenGL::EGL Threads::Threads
  PRIVATE nlohmann_json::nlohmann_json nbody_warnings)

target_sources(nbody PRIVATE window/gui_window.cpp window/gui_window_setup.cpp panel/gui_panel.cpp panel/panel_widgets.cpp panel/panel_scene.cpp
  panel/panel_physics.cpp panel/panel_display.cpp panel/panel_health.cpp panel/panel_classroom.cpp panel/panel_edit.cpp
  cli/cmd_render.cpp window/file_browser_ui.cpp)
target_compile_definitions(nbody PRIVATE NBODY_WITH_GUI=1)
target_link_libraries(nbody PRIVATE nbody_gui PkgConfig::IMGUI PkgConfig::GLFW)
