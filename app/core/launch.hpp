#pragma once
// What a person picks on the command line: the scene (preset or file) and the physics and
// kernel parameters. Shared by the window, `simulate` and `render`.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/core/backend.hpp"
#include "sim/core/params.hpp"
#include "sim/core/scene.hpp"
#include "sim/core/simulation.hpp"
#include "sim/io/io.hpp"
#include "sim/lesson/lesson.hpp"

namespace nbody::app {

struct LaunchOptions {
  std::string scene = "galaxy-collision";  ///< preset name (ignored when load is set)
  std::string load;                        ///< file or AGORA directory to load
  std::size_t n = 0;                       ///< 0: default N (65,536 on a GPU, 16,384 on CPU)
  std::optional<std::uint64_t> seed;       ///< generated scenes drawn at random; empty: 1
  std::vector<std::string> scene_values;   ///< key=value scene parameters
  std::string kernel;                      ///< empty: best available (GPU if present)
  std::string precision;  ///< "float" or "double"; empty: float (double for double-only kernels)
  std::optional<double> dt, softening, G;
  /// Kernel tunables given on the command line (--block-size, --theta, ...), by key; the
  /// options are generated from the kernel table (see add_tunable_options()).
  std::map<std::string, std::string> tunables;
  int steps_per_frame = 1;
  std::string gpus = "1";  ///< --gpus: a number of GPUs or "all"
  /// --rank, --world, --nccl-id (simulate): one rank of a run of several processes
  ProcessGroup process;
  std::string integrator;          ///< a row of sim/integrators/; empty: the scene's default
  double ias15_epsilon = 1e-9;     ///< --ias15-epsilon
  int whfast_corrector = 11;       ///< --whfast-corrector
  bool post_newtonian = false;     ///< 1PN correction of the Sun's gravity
  bool no_post_newtonian = false;  ///< --no-pn: drop the 1PN term a loaded state records
  /// --post-newtonian off|sun|eih (empty: --pn, --no-pn or the scene's/state's term)
  std::string post_newtonian_model;
  std::string lesson;  ///< --lesson: a lesson file (JSON) that scripts the run (docs/LESSONS.md)
  // small bodies (JPL SBDB JSON) added to a scene of the real sky
  std::vector<std::string> small_bodies;        ///< files
  std::vector<std::string> small_body_classes;  ///< SBDB classes to keep (all when empty)
  std::size_t small_bodies_max = 0;             ///< at most this many (0: all)
  std::string small_body_masses;                ///< largest|none|estimated (empty: largest)
  bool small_bodies_massless = false;           ///< --small-bodies-masses none
  bool small_bodies_kepler = false;  ///< --small-bodies-kepler: two-body orbits, not carried
  // file loading
  std::string input_units;  ///< units of a file that stores none (Tipsy, plain CSV); "" = Hénon
  std::vector<std::string> components;  ///< AGORA / Tipsy components: disk,bulge,halo,gas,star,dark
};

/// "KEY=VALUE" scene parameters (--param) as numbers; throws nbody::Error naming the bad one.
std::map<std::string, double> parse_values(const std::vector<std::string>& kv);

/// Adds the scene/physics/kernel options to `cmd` bound to `o`.
void add_launch_options(CLI::App& cmd, LaunchOptions& o);
/// One option per tunable key of the kernel table (--block-size, --theta, ...), its help naming
/// the kernels that have it and the allowed values; given values land in `out[key]` as text.
void add_tunable_options(CLI::App& cmd, std::map<std::string, std::string>& out,
                         const std::string& group, bool lists = false);
/// "--block-size" for the key "block_size".
std::string option_name(const std::string& key);
/// Checks the tunables given on the command line against `kernel` and stores them in p; throws
/// nbody::Error naming the option when the kernel has no such tunable or the value is invalid.
void apply_tunables(const std::map<std::string, std::string>& given, const KernelInfo& kernel,
                    SimParams& p);
/// Builds the scene (preset or file) and the parameters it starts with; throws nbody::Error.
/// `gpu_default_n` is the default N when a CUDA device is present, `cpu_default_n` otherwise.
struct Launch {
  Scene scene;
  SimParams params;
  /// The command line's --dt, --softening and --G: they replace the scene's when it starts.
  PhysicsOverride override;
  std::string kernel_reason;  ///< why this kernel, when none was named (shown in the panel)
  std::optional<io::RunRecord> loaded_run;  ///< the run a loaded file records (to continue it)
  /// --lesson: the lesson that scripts the run (its scene and start physics are applied above;
  /// play it with LessonPlayer(*lesson, scene.units)); null without one.
  std::shared_ptr<const Lesson> lesson;
  /// The lesson's simulated time per real second (physics.speed), 0 when it gives none.
  double lesson_speed = 0;
};
Launch make_launch(const LaunchOptions& o, std::size_t gpu_default_n = 65536,
                   std::size_t cpu_default_n = 16384);
/// The run length `simulate` and `render` use when the user gives none: the scene's suggested
/// duration (Scene::duration) in steps of dt, and the line that states it, e.g. "running 640 Myr
/// (1,290 steps): first pericentre at ~170 Myr (...), then 470 Myr of tails (...)".
struct RunPlan {
  long long steps = 0;                  ///< 0: the scene suggests none (the command's default)
  int frames = 0, steps_per_frame = 0;  ///< plan_frames(): frames of steps_per_frame steps
  std::string line;
};
/// Steps of `dt` that cover the scene's duration (simulate).
RunPlan plan_run(const Scene& scene, double dt);
/// Frames of `steps_per_frame` steps (0: as few steps per frame as keep to `max_frames`
/// frames) that cover the scene's duration (render).
RunPlan plan_frames(const Scene& scene, double dt, int steps_per_frame, int max_frames = 240);
/// "1,290"
std::string thousands(long long n);

/// Load options for a file from the launch options (components, units).
io::LoadOptions load_options(const LaunchOptions& o);
/// Load options for a file: components and input units from the command line, a progress bar
/// on a terminal, notices on stderr; `label` names the file in the bar.
io::LoadOptions load_options(const std::vector<std::string>& components,
                             const std::string& input_units, const std::string& label);
/// The bodies, units and parameters a simulation is at, for writing: dt, ε and G from `p`
/// (G differing from the units' own G is kept with the units).
Scene output_scene(Simulation& sim, const SimParams& p);
/// What `sim` has run with `p`: elapsed time, steps, kernel, integrator ("leapfrog-kdk" or
/// "yoshida4", "+1pn" with the post-Newtonian term), recorded in written files; a run continued
/// from a file adds the file's elapsed time and steps (`before`).
io::RunRecord run_record(const Simulation& sim, const SimParams& p,
                         const std::optional<io::RunRecord>& before = {});
/// Throws nbody::Error naming two bodies at the same position when the softening is 0 (their
/// mutual force would be infinite).
void check_coincident(const Bodies& b, double softening, const std::string& what);
/// A CLI11 validator: a non-empty file or directory name (-o "" is an error, not "no output").
CLI::Validator non_empty();
/// A CLI11 validator: a finite number > 0 (positive) or >= 0.
CLI::Validator finite_number(bool positive);
/// The unit-system names --input-units and --units accept.
std::vector<std::string> unit_names();

/// The value of --gpus: "all" is 0 (every device), else a number >= 1; throws nbody::Error.
int parse_gpus(const std::string& text);
/// The kernel to use when none is named: the fastest GPU kernel when a device exists,
/// else cpu-symmetric... whichever the table marks best.
std::string default_kernel();

/// --tree-cells (window and render) draws a tree kernel's cells: throws nbody::Error naming the
/// option and `kernel` when its row has no tree, with the tree kernels this machine can run.
void check_tree_cells(int depth, const std::string& kernel);

/// The kernel a scene starts with when none is named, and why.
struct KernelPick {
  std::string kernel;
  std::string reason;
};
/// The fastest kernel accurate enough for `scene` (GPU kernels when `gpu`): the direct sum for
/// planetary scenes (solar units or trails: a few massive bodies, exact forces wanted) and below
/// the crossover N measured by `nbody bench` (docs/PERFORMANCE.md), Barnes-Hut above it.
KernelPick choose_kernel(const Scene& scene, bool gpu);
/// The crossovers: Barnes-Hut is faster than the direct sum from this N on.
constexpr std::size_t kGpuTreeFromN = 32768;  ///< H100: a tie at 28,672, BH ahead at 32,768
constexpr std::size_t kCpuTreeFromN = 512;    ///< 2 cores: cpu-barnes-hut faster from 256 on

}  // namespace nbody::app
