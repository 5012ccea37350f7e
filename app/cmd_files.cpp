// `nbody info FILE` and `nbody convert IN OUT`: file summaries and format conversion.

#include "app/commands.hpp"

namespace nbody::app {

void register_file_commands(CLI::App& app) {}

}  // namespace nbody::app
