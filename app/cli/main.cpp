// nbody: the GUI by default; subcommands simulate, bench, convert, info, render.
#include <csignal>
#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli/commands.hpp"
#include "app/core/launch.hpp"
#include "sim/core/error.hpp"
#include "sim/io/io.hpp"

namespace {

// SIGINT/SIGTERM/SIGHUP/SIGQUIT: remove the temporary files of writes in progress, then die of
// the signal
extern "C" void on_signal(int sig) {
  nbody::io::remove_temp_files();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// an error message as it can be shown on a terminal: control bytes (ANSI escapes) as \xNN and
// at most 2000 bytes (a file's 200 KB name is not printed whole)
std::string printable(const std::string& m) {
  std::string out;
  for (std::size_t i = 0; i < m.size() && out.size() < 2000; ++i) {
    const auto c = static_cast<unsigned char>(m[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += m[i];
    }
  }
  if (out.size() >= 2000) out += "... (" + std::to_string(m.size()) + " bytes in all)";
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace nbody::app;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
    std::signal(sig, on_signal);
  // whole lines reach a redirected stdout as they are printed, so a signal loses none
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
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
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::fprintf(stderr, "%s\nRun with --help for more information.\n",
                 printable(e.what()).c_str());
    return e.get_exit_code();
  } catch (const nbody::Error& e) {
    std::fprintf(stderr, "nbody: error: %s\n", printable(e.what()).c_str());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "nbody: error: out of memory (the scene or file is too large for this machine's "
                 "memory; try fewer bodies)\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nbody: unexpected error: %s\n", printable(e.what()).c_str());
    return 2;
  }
  return 0;
}
