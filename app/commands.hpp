#pragma once
// Subcommands of the nbody program. Each registers itself on the CLI11 app; main() runs the
// callback of the chosen one. Errors are thrown as nbody::Error and printed by main().

#include <CLI/CLI.hpp>

namespace nbody::app {

/// `nbody info FILE` and `nbody convert IN OUT`.
void register_file_commands(CLI::App& app);
/// `nbody simulate`: headless run of a scene printing diagnostics (no GL needed).
void register_simulate_command(CLI::App& app);
/// `nbody bench`: kernel comparison and accuracy check.
void register_bench_command(CLI::App& app);
/// GUI (default action) and `nbody render` (headless frames); only in GUI builds.
void register_gui_commands(CLI::App& app);
/// What `nbody` with no subcommand does.
int run_default(int argc, char** argv);

}  // namespace nbody::app
