#pragma once
// What a person picks on the command line: the scene (preset or file) and the physics and
// kernel parameters. Shared by the window, `simulate` and `render`.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/io/io.hpp"
#include "sim/params.hpp"
#include "sim/scene.hpp"

namespace nbody::app {

struct LaunchOptions {
  std::string scene = "galaxy-collision";  ///< preset name (ignored when load is set)
  std::string load;                        ///< file or AGORA directory to load
  std::size_t n = 0;                       ///< 0: default N (65,536 on a GPU, 16,384 on CPU)
  std::uint64_t seed = 1;
  std::vector<std::string> scene_values;  ///< key=value scene parameters
  std::string kernel;                     ///< empty: best available (GPU if present)
  std::string precision = "float";
  std::optional<double> dt, softening, G;
  int block_size = 0, luf = 0, block_y = 0, unroll = 0, threads = -1;  ///< 0/-1: kernel default
  int steps_per_frame = 1;
  // file loading
  std::string tipsy_units = "henon";
  std::vector<std::string> components;  ///< AGORA / Tipsy components: disk,bulge,halo,gas,star,dark
};

/// Adds the scene/physics/kernel options to `cmd` bound to `o`.
void add_launch_options(CLI::App& cmd, LaunchOptions& o);
/// Builds the scene (preset or file) and the parameters it starts with; throws nbody::Error.
/// `gpu_default_n` is the default N when a CUDA device is present, `cpu_default_n` otherwise.
struct Launch {
  Scene scene;
  SimParams params;
};
Launch make_launch(const LaunchOptions& o, std::size_t gpu_default_n = 65536,
                   std::size_t cpu_default_n = 16384);
/// Load options for a file from the launch options (components, units).
io::LoadOptions load_options(const LaunchOptions& o);
/// The kernel to use when none is named: the fastest GPU kernel when a device exists,
/// else cpu-symmetric... whichever the table marks best.
std::string default_kernel();

}  // namespace nbody::app
