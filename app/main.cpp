// nbody: the GUI by default; subcommands simulate, bench, convert, info, render.
#include <csignal>
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>

#include "app/commands.hpp"
#include "app/launch.hpp"
#include "sim/error.hpp"
#include "sim/io/io.hpp"

namespace {

// SIGINT/SIGTERM: remove the temporary files of writes in progress, then die of the signal
extern "C" void on_signal(int sig) {
  nbody::io::remove_temp_files();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace nbody::app;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  CLI::App app{
      "nbody: interactive GPU N-body visualizer.\n"
      "Without a subcommand it opens the window on a scene; see the subcommands for headless "
      "work."};
  app.set_version_flag("--version", "nbody 0.1.0");
  app.require_subcommand(0, 1);
  app.fallthrough(false);

  // the window's options live on the top level: `nbody --scene solar-system`
  LaunchOptions launch;
  add_launch_options(app, launch);

  register_file_commands(app);
  register_simulate_command(app);
  register_bench_command(app);
#ifdef NBODY_WITH_GUI
  register_gui_commands(app);
#endif

  try {
    app.parse(argc, argv);
    if (app.get_subcommands().empty()) {
#ifdef NBODY_WITH_GUI
      return run_gui(launch);
#else
      return run_headless_default(launch);
#endif
    }
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const nbody::Error& e) {
    std::fprintf(stderr, "nbody: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nbody: unexpected error: %s\n", e.what());
    return 2;
  }
  return 0;
}
