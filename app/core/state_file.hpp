#pragma once
// Saving and restoring the whole state of a run from the window (issue 19, item 6): the bodies,
// time and steps, the physics (dt, ε, G, integrator, 1PN), the kernel choice (kernel, precision,
// GPUs, tunables) and the window's view, in the native CSV or binary format.

#include <functional>
#include <map>
#include <string>

#include "sim/core/params.hpp"
#include "sim/core/scene.hpp"
#include "sim/io/io.hpp"

namespace nbody::app {

/// A state read back by load_state_file().
struct RestoredState {
  Scene scene;            ///< the bodies; scene.dt/softening/units.G are the run's
  PhysicsParams physics;  ///< dt, ε, G, integrator, 1PN (speed of light from the units)
  KernelChoice choice;    ///< the saved kernel, or a fallback this machine can run
  double time = 0;        ///< elapsed time in the scene's time unit
  long long steps = 0;    ///< steps done
  std::map<std::string, double> view;  ///< what the window stored (camera), as saved
  std::string notice;  ///< non-empty when something saved could not be restored (a fallback)
  io::RunRecord run;   ///< the record as read
};

/// The run record of a state: time, steps, the physics and kernel choice of `p`, the view.
io::RunRecord state_record(const SimParams& p, double time, long long steps,
                           const std::map<std::string, double>& view);

/// Writes the whole state to `path` (.csv or .bin, chosen by the extension; atomically):
/// `current` are the bodies as they are now (e.g. Simulation::current()); dt, ε and G are taken
/// from `p`. Throws nbody::Error naming the path.
void save_state_file(const std::string& path, const Scene& current, const SimParams& p, double time,
                     long long steps, const std::map<std::string, double>& view);

/// Reads a state written by save_state_file() (or any native CSV/binary file: what it does not
/// record takes the scene's defaults). A saved kernel this machine cannot run (a GPU kernel
/// without a GPU, a kernel not in this build) falls back to the kernel choose_kernel() picks,
/// and RestoredState::notice says so, naming both. Throws nbody::Error naming the file.
RestoredState load_state_file(const std::string& path);

/// The kernel choice a run record restores: its kernel when this machine can run it (else
/// `fallback`, with `notice` naming both), its precision where that kernel computes in it, its
/// GPUs (1 when the machine has fewer) and its tunables (those the kernel has).
KernelChoice restore_choice(const io::RunRecord& run, const std::string& fallback,
                            const std::function<void(const std::string&)>& notice);

/// What a record adds to the integrator's name for p's 1PN term: "", "+1pn" (the Sun's) or
/// "+eih".
std::string post_newtonian_suffix(const PhysicsParams& p);
/// Takes "+1pn" or "+eih" off the end of `recorded` and sets `model`; false when it has neither.
bool strip_post_newtonian_suffix(std::string& recorded, PnModel& model);
/// The integrator and 1PN term a record names ("yoshida4+1pn", "ias15+eih"); false when it names
/// no integrator this program knows.
bool restore_integrator(const std::string& recorded, Integrator& integrator, bool& post_newtonian,
                        PnModel* model = nullptr);

}  // namespace nbody::app
