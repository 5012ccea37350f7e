# GL tests (label "gl"): included from tests/CMakeLists.txt in GUI builds.
#   test_gui_smoke      the window under Xvfb + Mesa (CPU kernels): frames, screenshot, quit
#   test_headless       EGL offscreen context, viewer frames, PNG capture, shader error names
#   test_interop        CUDA-GL interop: the GL buffer holds the simulation's positions (GPU)
#   test_viewer_edit    hands on, drawn: add, select, inspect, move, delete, undo (CPU; GPU)
#   test_gui_edit       the window driven by xdotool: add, inspect, delete, undo (issue 19)
#   test_gui_monkey     random xdotool events on every widget and key: no crash (issue 20)
#   test_gui_layout     --panel-check at 1,024x768: no label cut at the panel's edge (issue 20)
#   test_gui_threaded   the window with a slow simulation thread: UI frames go on; --stats JSON
#   test_gui_logic      dates, speed and steps, body colours, scale bar (label app, no GL)
#   test_distance_scale the log distance display's map, its inverse, the shaders' copy (app)
#   test_movie_pipe     the MP4 recorder's ffmpeg child: names passed as arguments (label app)
#   test_recorder       the recording's movie clock, PNG sequence, MP4 frames, crop (label app)
#   test_gui_record     the window records a PNG sequence: rate, size, burn-in, no shift
find_package(PkgConfig REQUIRED)
pkg_check_modules(STB_TEST REQUIRED IMPORTED_TARGET stb)

nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_gui_smoke.cpp gl PkgConfig::STB_TEST)
add_dependencies(test_gui_smoke nbody)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/render/test_headless.cpp gl nbody_gui PkgConfig::STB_TEST)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/render/test_interop.cpp gl nbody_gui)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/render/test_cell_boxes.cpp gl nbody_gui)
# the window with its own simulation thread: slow steps, --exit-after, --stats
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_gui_threaded.cpp gl nlohmann_json::nlohmann_json)
add_dependencies(test_gui_threaded nbody)
# hands on through real X input events (xdotool): add, inspect, delete, undo (issue 19)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_gui_edit.cpp gl nlohmann_json::nlohmann_json)
add_dependencies(test_gui_edit nbody)
# random real input events on every widget and key for a while: no crash, no sanitizer report
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_gui_monkey.cpp gl nlohmann_json::nlohmann_json)
add_dependencies(test_gui_monkey nbody)
# --panel-check at 1,024x768 in several scenes: no label cut at the panel's edge
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_gui_layout.cpp gl nlohmann_json::nlohmann_json)
add_dependencies(test_gui_layout nbody)
# render --out through the safe writer: FIFO, full disk, summary.json (issue 22)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_render_output.cpp gl)
add_dependencies(test_render_output nbody)
# the log distance display's map and its GLSL twin (no GL context needed)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/render/test_distance_scale.cpp app nbody::render)
# pure helpers of the window (no GL context needed)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_gui_logic.cpp app nbody_gui)
# the MP4 recorder's child process (no shell; issue 22)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_movie_pipe.cpp app nbody_gui)
# the recording: movie clock, PNG sequence, MP4 frames, crop (issue 20, item 7)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_recorder.cpp app nbody_gui)
# the window records a PNG sequence under Xvfb: rate, size, burn-in, the view not shifted
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_gui_record.cpp gl nlohmann_json::nlohmann_json PkgConfig::STB_TEST)
add_dependencies(test_gui_record nbody)
# the simulation thread's accuracy check and tree cells (label app, no GL)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_sim_runner.cpp app nbody_gui)
# the simulation thread's edits, undo, timeline, selection, merging and saving (label app)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/app/test_sim_runner_edit.cpp app nbody_gui)
nbody_add_test(${CMAKE_CURRENT_SOURCE_DIR}/render/test_viewer_edit.cpp gl nbody_gui)
