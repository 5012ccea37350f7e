// `nbody info FILE` and `nbody convert IN OUT`: file summaries and format conversion.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/core/launch.hpp"
#include "sim/core/error.hpp"
#include "sim/io/format_table.hpp"

namespace nbody::app {

namespace {

struct FileOptions {
  std::string in, out, from, to, input_units, units;
  std::vector<std::string> components;
  bool force = false;
};

// loader options from the command line: a progress bar on a terminal, notices on stderr
io::LoadOptions file_load_options(const FileOptions& o, bool all_components) {
  io::LoadOptions lo = load_options(o.components, o.input_units, o.in);
  if (!o.units.empty()) lo.target_units = units::by_name(o.units, "--units");
  if (o.components.empty() && all_components) io::select_components(lo, {"all"});
  // convert and info take the file's dt/ε or a guess, and need neither to be valid
  lo.need_dt = lo.need_softening = false;
  return lo;
}

Scene load_input(const FileOptions& o, const io::LoadOptions& lo) {
  if (!o.from.empty()) return io::load(o.in, io::parse_format(o.from, "--from"), lo);
  return io::load(o.in, lo);
}

// the output format: --to, else the extension of OUT
io::Format output_format(const FileOptions& o) {
  if (!o.to.empty()) return io::parse_format(o.to, "--to");
  if (o.out == "-") return io::Format::Csv;
  if (auto f = io::format_from_extension(o.out)) return *f;
  fail(o.out, ": cannot tell the output format from the name (", io::extension_help(),
       "; or give --to FORMAT)");
}

void add_common(CLI::App* cmd, FileOptions& o) {
  cmd->add_option("--from", o.from, "input format (default: detected):" + io::format_help(false))
      ->check(CLI::IsMember(io::format_choices(false), CLI::ignore_case));
  cmd->add_option("--input-units,--tipsy-units", o.input_units,
                  "units of an input that stores none (possible for " +
                      io::format_labels(&io::FormatCaps::units, false) +
                      "): henon (default, G = 1), galactic, agora, solar")
      ->check(CLI::IsMember(unit_names()));
  cmd->add_option("--units", o.units,
                  "convert to these units (solar, galactic, agora, henon); default: keep the "
                  "file's")
      ->check(CLI::IsMember(unit_names()));
}

void print_notice(const std::string& m) {
  std::fprintf(stderr, "nbody: note: %s\n", m.c_str());
}

}  // namespace

void register_file_commands(CLI::App& app) {
  // nbody info FILE
  auto info_opts = std::make_shared<FileOptions>();
  CLI::App* info = app.add_subcommand(
      "info", "Print a file's summary: format, counts per type, total mass, bounds, units");
  info->add_option("file", info_opts->in, "file or AGORA directory")
      ->required()
      ->check(non_empty());
  add_common(info, *info_opts);
  info->callback([info_opts] {
    const FileOptions& o = *info_opts;
    io::LoadOptions lo = file_load_options(o, true);
    if (!o.from.empty()) {
      // an explicit format: load with it, then summarise
      Scene s = load_input(o, lo);
      std::printf("file:       %s\nformat:     %s\nbodies:     %zu\nunits:      %s, G = %.10g\n",
                  o.in.c_str(), io::format_name(io::parse_format(o.from, "--from")),
                  s.bodies.size(), s.units.name.c_str(), s.units.G);
      return;
    }
    std::fputs(io::describe(io::info(o.in, lo)).c_str(), stdout);
  });

  // nbody convert IN OUT
  auto conv_opts = std::make_shared<FileOptions>();
  CLI::App* conv = app.add_subcommand(
      "convert",
      "Convert between file formats (and units).\n"
      "OUT's format comes from --to or its extension: " +
          io::extension_help() +
          " (give --to). OUT '-' writes CSV to standard output. An existing regular file is "
          "replaced "
          "atomically (its mode kept; a symlink is written through); devices, FIFOs and "
          "directories are refused. The native CSV header is\n"
          "  # nbody csv v1 units=henon G=1 dt=0.01 softening=0.05\n"
          "  x,y,z,vx,vy,vz,m,component,name\n"
          "and a plain CSV with only the column header x,y,z,vx,vy,vz,m (any order, any case) is "
          "read in --input-units.");
  conv->add_option("in", conv_opts->in, "input file or AGORA directory")
      ->required()
      ->check(non_empty());
  conv->add_option("out", conv_opts->out, "output file (AGORA: a directory; '-': standard output)")
      ->required()
      ->check(non_empty());
  conv->add_option("--to", conv_opts->to, "output format:" + io::format_help(true))
      ->check(CLI::IsMember(io::format_choices(true), CLI::ignore_case));
  add_common(conv, *conv_opts);
  conv->add_option("--components", conv_opts->components,
                   "particle types to read: disk, bulge, halo (= dark), gas, star (Tipsy stars, "
                   "AGORA disk+bulge), all; default: Tipsy stars, AGORA disk+bulge")
      ->delimiter(',')
      ->check(CLI::IsMember({"disk", "bulge", "halo", "dark", "gas", "star", "stars", "all"},
                            CLI::ignore_case));
  conv->add_flag("--force", conv_opts->force,
                 "write into an existing AGORA directory or onto the input itself");
  conv->callback([conv_opts] {
    const FileOptions& o = *conv_opts;
    const io::Format to = output_format(o);
    io::SaveOptions so;
    so.force = o.force;
    so.notice = print_notice;
    // the input itself as the output: what was not read (other components) would be lost
    std::error_code ec;
    if (o.out != "-" && std::filesystem::exists(o.out, ec) &&
        std::filesystem::equivalent(o.in, o.out, ec) && !o.force)
      fail(o.out,
           ": is the input itself; converting it in place would replace what was read "
           "and drop what was not (give --force to do it anyway)");
    // the output is checked before the (possibly long) load
    io::check_output(o.out, to, so);
    io::LoadOptions lo = file_load_options(o, false);
    io::RunRecord run;  // the run the input records travels to the output
    lo.run = &run;
    Scene s = load_input(o, lo);
    if (run.steps > 0 || run.time != 0 || !run.kernel.empty()) so.run = run;
    io::save(s, o.out, to, so);
    std::fprintf(o.out == "-" ? stderr : stdout, "wrote %s (%s): %zu bodies, units %s, G = %.10g\n",
                 o.out.c_str(), io::format_name(to), s.bodies.size(), s.units.name.c_str(),
                 s.units.G);
  });
}

}  // namespace nbody::app
