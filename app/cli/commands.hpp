#pragma once
// Subcommands of the nbody program. Each registers itself on the CLI11 app; main() runs the
// callback of the chosen one. Errors are thrown as nbody::Error and printed by main().

#include <CLI/CLI.hpp>

#include "app/core/launch.hpp"

namespace nbody::app {

/// `nbody info FILE` and `nbody convert IN OUT`.
void register_file_commands(CLI::App& app);
/// `nbody simulate`: headless run of a scene printing diagnostics (no GL needed).
void register_simulate_command(CLI::App& app);
/// `nbody bench`: kernel comparison and accuracy check.
void register_bench_command(CLI::App& app);
/// `nbody render` (headless frames) and other GL subcommands; only in GUI builds
/// (app/gui.cmake defines NBODY_WITH_GUI=1 on the nbody target).
void register_gui_commands(CLI::App& app);
/// The window: what `nbody` with no subcommand does in GUI builds; returns the exit code.
int run_gui(const LaunchOptions& launch);
/// `nbody` with no subcommand in builds without GUI: a short headless run printing diagnostics.
int run_headless_default(const LaunchOptions& launch);

}  // namespace nbody::app
