#pragma once
// Simulation parameters, kept apart from the state: the panel edits a SimParams, the simulation
// reads it once per frame and passes fields by value to the kernels.

#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace nbody {

enum class Precision { Float, Double };
const char* precision_name(Precision p);
/// "float" or "double"; throws nbody::Error naming `what` otherwise.
Precision parse_precision(const std::string& s, const std::string& what = "precision");

/// The time integrator; every one calls the same force kernels once per stage.
enum class Integrator {
  Leapfrog,  ///< kick-drift-kick, 2nd order, one force evaluation per step
  Yoshida4,  ///< Yoshida's (1990) 4th-order symplectic composition of three leapfrogs (3 forces)
  IAS15,     ///< Rein & Spiegel (2015) adaptive 15th-order Gauss-Radau (host, double)
  WHFast,    ///< Rein & Tamayo (2015) Wisdom-Holman in Jacobi coordinates with correctors (host)
};
const char* integrator_name(Integrator i);
/// "leapfrog", "yoshida4", "ias15" or "whfast" (or an alias); throws nbody::Error naming `what`
/// otherwise.
Integrator parse_integrator(const std::string& s, const std::string& what = "integrator");
/// Force evaluations per step of `i` (for equal-cost comparisons).
int force_evaluations(Integrator i);

/// Which 1PN term PhysicsParams::post_newtonian adds.
enum class PnModel {
  Sun,  ///< the Sun's field alone, test-particle form (sim/forces/post_newtonian.hpp; GPU too)
  EIH,  ///< Einstein-Infeld-Hoffmann, every massive body (sim/forces/eih.hpp; CPU kernels only)
};
/// "off", "sun" or "eih": the 1PN term of p.
const char* post_newtonian_name(bool post_newtonian, PnModel m);
/// "off", "sun" or "eih" (also "none"/"no", "1pn"/"on"/"yes"); throws nbody::Error naming `what`
/// and the values allowed otherwise.
void parse_post_newtonian(const std::string& s, bool& post_newtonian, PnModel& m,
                          const std::string& what = "post-newtonian");

/// The physics of a run, with one owner (the simulation; the panel asks for changes): what a
/// step integrates and with which forces' constants. Live: any of it may change between steps.
struct PhysicsParams {
  double dt = 1e-3;  ///< time step, in the scene's time unit (< 0: backwards, time-reversible
                     ///< integrators only)
  double softening = 0.05;  ///< Plummer softening length ε (>= 0); ε² is added to r²
  double G = 1.0;           ///< gravitational constant in the scene's units (> 0)
  Integrator integrator = Integrator::Leapfrog;
  /// 1PN correction of the gravity of the most massive body (the Sun), in the test-particle
  /// (Schwarzschild, harmonic gauge) form REBOUNDx calls "gr"; needs speed_of_light > 0.
  bool post_newtonian = false;
  /// Which 1PN term when post_newtonian: the Sun's alone (the default) or the EIH term of every
  /// massive body (host stores only).
  PnModel pn_model = PnModel::Sun;
  /// c in the scene's units (AU/day for the solar units: 173.1446...); used by post_newtonian.
  double speed_of_light = 0;
  /// IAS15's tolerance: the step is chosen so that the last term of the acceleration's series
  /// is this fraction of the largest acceleration (Rein & Spiegel 2015: 1e-9; > 0).
  double ias15_epsilon = 1e-9;
  /// WHFast's symplectic corrector order (Wisdom, Holman & Touma 1996): 0 (none), 3, 5, 7 or
  /// 11, applied at the start and end of each batch of steps.
  int whfast_corrector = 11;
};

/// This process's place in a run of several processes, one GPU each (--rank, --world,
/// --nccl-id; sim/cuda/multi_gpu.cu): world 1 is a run of one process.
struct ProcessGroup {
  int rank = 0, world = 1;
  std::string id;  ///< how the ranks meet: a file path or tcp:HOST:PORT (sim/core/rendezvous.hpp)
  bool operator==(const ProcessGroup& o) const {
    return rank == o.rank && world == o.world && id == o.id;
  }
};

/// Which kernel computes the forces: a structural choice (changing it makes a new backend),
/// asked for by request, never edited live.
struct KernelChoice {
  std::string kernel = "cpu-openmp";  ///< name from the kernel table
  Precision precision = Precision::Float;
  /// GPUs a GPU kernel runs on (0 = every device; >= 0): the bodies are split into one slice per
  /// GPU and the updated positions exchanged with NCCL each step. CPU kernels ignore it.
  int gpus = 1;
  /// One rank of several processes (a GPU kernel on one GPU per process) when world > 1.
  ProcessGroup process;
  /// Kernel tunables by key ("block_size", "theta", ...): which keys a kernel reads, their
  /// ranges and defaults are in its KernelInfo row; an absent key takes the row's default.
  /// A Choice tunable stores the index of its choice.
  std::map<std::string, double> tunables;
};

/// Values given on the command line that a new scene takes instead of its own (a scene
/// request carries one; the panel's scene requests carry none).
struct PhysicsOverride {
  std::optional<double> dt, softening, G;
  /// p with the given values in place of the scene's.
  void apply(PhysicsParams& p) const {
    if (dt) p.dt = *dt;
    if (softening) p.softening = *softening;
    if (G) p.G = *G;
  }
};

/// Everything a backend's step() reads: the physics, the kernel choice, and the steps of a batch.
struct SimParams : PhysicsParams, KernelChoice {
  int steps_per_frame = 1;  ///< leapfrog steps per rendered frame (>= 1)

  PhysicsParams& physics() { return *this; }
  const PhysicsParams& physics() const { return *this; }
  KernelChoice& choice() { return *this; }
  const KernelChoice& choice() const { return *this; }
};

/// Checks dt, ε, G, the integrator and the 1PN term; throws nbody::Error naming the parameter
/// and the bad value.
void validate(const PhysicsParams& p);
/// Checks every field; throws nbody::Error naming the parameter and the bad value
/// ("dt must be > 0 (got -1)"). Does not check the kernel name (see make_backend()).
void validate(const SimParams& p);

}  // namespace nbody
