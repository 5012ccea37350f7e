// `nbody info FILE` and `nbody convert IN OUT`: file summaries and format conversion.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/commands.hpp"
#include "sim/error.hpp"
#include "sim/io/io.hpp"

namespace nbody::app {

namespace {

struct FileOptions {
  std::string in, out, from, to, tipsy_units = "henon", units;
  std::vector<std::string> components;
};

const char* kFormatHelp =
    "csv | bin | tipsy (= tipsy-xdr, big-endian) | tipsy-native (little-endian) | "
    "tipsy-nvidia (little-endian, int ids in phi, as NVIDIA's nbody sample reads) | agora "
    "(a directory)";

// loader options from the command line; progress goes to stderr, rewritten in place
io::LoadOptions load_options(const FileOptions& o, bool all_components) {
  io::LoadOptions lo;
  lo.tipsy_units = units::by_name(o.tipsy_units, "--tipsy-units");
  if (!o.units.empty()) lo.target_units = units::by_name(o.units, "--units");
  if (!o.components.empty()) {
    io::select_components(lo, o.components, "--components");
  } else if (all_components) {
    io::select_components(lo, {"all"});
  }
  lo.progress = [path = o.in, last = -1](double f) mutable {
    const int pct = static_cast<int>(f * 100.0);
    if (pct == last) return;
    last = pct;
    std::fprintf(stderr, "\rreading %s: %3d%%%s", path.c_str(), pct, pct >= 100 ? "\n" : "");
    std::fflush(stderr);
  };
  return lo;
}

Scene load_input(const FileOptions& o, const io::LoadOptions& lo) {
  if (!o.from.empty()) return io::load(o.in, io::parse_format(o.from, "--from"), lo);
  return io::load(o.in, lo);
}

// the output format: --to, else the extension of OUT
io::Format output_format(const FileOptions& o) {
  if (!o.to.empty()) return io::parse_format(o.to, "--to");
  if (auto f = io::format_from_extension(o.out)) return *f;
  std::error_code ec;
  if (std::filesystem::is_directory(o.out, ec)) return io::Format::Agora;
  fail(o.out,
       ": cannot tell the output format from the name (use .csv, .bin, .tipsy/.std, or "
       "--to FORMAT)");
}

void add_common(CLI::App* cmd, FileOptions& o) {
  cmd->add_option("--from", o.from,
                  std::string("input format (default: detected): ") + kFormatHelp);
  cmd->add_option("--tipsy-units", o.tipsy_units,
                  "units of a Tipsy input, which stores none: henon (G = 1), galactic, agora, "
                  "solar")
      ->capture_default_str();
  cmd->add_option("--units", o.units,
                  "convert to these units (solar, galactic, agora, henon); default: keep the "
                  "file's");
}

}  // namespace

void register_file_commands(CLI::App& app) {
  // nbody info FILE
  auto info_opts = std::make_shared<FileOptions>();
  CLI::App* info = app.add_subcommand(
      "info", "Print a file's summary: format, counts per type, total mass, bounds, units");
  info->add_option("file", info_opts->in, "file or AGORA directory")->required();
  add_common(info, *info_opts);
  info->callback([info_opts] {
    const FileOptions& o = *info_opts;
    io::LoadOptions lo = load_options(o, true);
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
      "OUT's format comes from --to or its extension: .csv -> csv, .bin/.nbody -> bin (native "
      "binary), .tipsy/.std -> tipsy (big-endian XDR); tipsy-native, tipsy-nvidia and agora "
      "need --to.");
  conv->add_option("in", conv_opts->in, "input file or AGORA directory")->required();
  conv->add_option("out", conv_opts->out, "output file (AGORA: a directory)")->required();
  conv->add_option("--to", conv_opts->to, std::string("output format: ") + kFormatHelp);
  add_common(conv, *conv_opts);
  conv->add_option("--components", conv_opts->components,
                   "particle types to read: disk, bulge, halo (= dark), gas, star (Tipsy stars, "
                   "AGORA disk+bulge), all; default: Tipsy stars, AGORA disk+bulge")
      ->delimiter(',');
  conv->callback([conv_opts] {
    const FileOptions& o = *conv_opts;
    const io::Format to = output_format(o);
    Scene s = load_input(o, load_options(o, false));
    io::save(s, o.out, to);
    std::printf("wrote %s (%s): %zu bodies, units %s, G = %.10g\n", o.out.c_str(),
                io::format_name(to), s.bodies.size(), s.units.name.c_str(), s.units.G);
  });
}

}  // namespace nbody::app
