#include "app/core/state_file.hpp"

#include <cmath>
#include <cstdio>

#include "app/core/launch.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"

namespace nbody::app {

io::RunRecord state_record(const SimParams& p, double time, long long steps,
                           const std::map<std::string, double>& view) {
  io::RunRecord r;
  r.time = time;
  r.steps = steps;
  r.kernel = p.kernel;
  r.integrator = std::string(p.integrator == Integrator::Leapfrog ? "leapfrog-kdk"
                                                                  : integrator_name(p.integrator)) +
                 post_newtonian_suffix(p);
  r.precision = precision_name(p.precision);
  r.gpus = p.gpus;
  r.tunables = p.tunables;
  r.view = view;
  return r;
}

void save_state_file(const std::string& path, const Scene& current, const SimParams& p, double time,
                     long long steps, const std::map<std::string, double>& view) {
  // the run's dt, ε and G go into the header with the bodies
  Scene s = current;
  s.dt = std::abs(p.dt);  // a run backwards: the window records "backwards" in its view
  s.softening = p.softening;
  s.units.G = p.G;
  io::save_state(path, s, state_record(p, time, steps, view));
}

std::string post_newtonian_suffix(const PhysicsParams& p) {
  if (!p.post_newtonian) return "";
  return p.pn_model == PnModel::EIH ? "+eih" : "+1pn";
}

bool strip_post_newtonian_suffix(std::string& recorded, PnModel& model) {
  for (const auto& [suffix, m] : {std::pair{"+1pn", PnModel::Sun}, std::pair{"+eih", PnModel::EIH}})
    if (recorded.size() > 4 && recorded.compare(recorded.size() - 4, 4, suffix) == 0) {
      recorded.resize(recorded.size() - 4);
      model = m;
      return true;
    }
  return false;
}

bool restore_integrator(const std::string& recorded, Integrator& integrator, bool& post_newtonian,
                        PnModel* model) {
  std::string base = recorded;
  PnModel m = PnModel::Sun;
  const bool pn = strip_post_newtonian_suffix(base, m);
  if (base == "leapfrog-kdk") base = "leapfrog";
  try {
    integrator = parse_integrator(base);
  } catch (const Error&) {
    return false;
  }
  post_newtonian = pn;
  if (model) *model = m;
  return true;
}

KernelChoice restore_choice(const io::RunRecord& run, const std::string& fallback,
                            const std::function<void(const std::string&)>& notice) {
  KernelChoice c;
  c.kernel = fallback;
  // the saved kernel, when this build has it and this machine can run it
  const KernelInfo* saved = nullptr;
  for (const KernelInfo& k : kernel_table())
    if (k.name == run.kernel) saved = &k;
  if (saved && (!saved->gpu || cuda_available())) {
    c.kernel = saved->name;
  } else if (!run.kernel.empty() && notice) {
    notice("the state was saved with kernel '" + run.kernel + "', which " +
           (saved ? "needs a GPU this machine does not have" : "this build does not have") +
           "; it continues on '" + fallback + "'");
  }
  const KernelInfo& k = find_kernel(c.kernel);
  // precision where the kernel computes in it
  c.precision = k.supports_float ? Precision::Float : Precision::Double;
  if (run.precision == "double" && k.supports_double) c.precision = Precision::Double;
  if (run.precision == "float" && k.supports_float) c.precision = Precision::Float;
  // GPUs: as many as were saved when this machine has them
  if (k.gpu && run.gpus != 1) {
    try {
      resolve_gpus(run.gpus);
      c.gpus = run.gpus;
    } catch (const Error& e) {
      if (notice)
        notice("the state ran on " + std::to_string(run.gpus) + " GPUs (0: all): " + e.what() +
               "; it continues on one");
    }
  }
  // the tunables this kernel has, when valid
  for (const auto& [key, value] : run.tunables)
    if (const Tunable* t = k.find_tunable(key); t && t->valid(value)) c.tunables[key] = value;
  return c;
}

RestoredState load_state_file(const std::string& path) {
  RestoredState r;
  io::LoadOptions lo;
  lo.notice = [&r](const std::string& m) { r.notice += (r.notice.empty() ? "" : "; ") + m; };
  io::SavedState st = io::load_state(path, lo);
  r.scene = std::move(st.scene);
  r.run = st.run;
  r.time = st.run.time;
  r.steps = st.run.steps;
  r.view = st.run.view;
  // physics: dt, ε and G from the header, the integrator and 1PN from the record
  PhysicsParams& ph = r.physics;
  ph.dt = r.scene.dt;
  ph.softening = r.scene.softening;
  ph.G = r.scene.units.G;
  ph.integrator = r.scene.integrator;
  if (!st.run.integrator.empty() &&
      !restore_integrator(st.run.integrator, ph.integrator, ph.post_newtonian, &ph.pn_model))
    lo.notice("unknown integrator '" + st.run.integrator + "' in " + path + "; using " +
              integrator_name(ph.integrator));
  const UnitSystem& u = r.scene.units;
  ph.speed_of_light = u.physical() ? 299792458.0 * u.time_s / u.length_m : 0.0;
  if (ph.post_newtonian && !u.physical()) ph.post_newtonian = false;
  validate(ph);
  // the kernel this machine can run
  const std::string fallback = choose_kernel(r.scene, cuda_available()).kernel;
  r.choice = restore_choice(st.run, fallback, lo.notice);
  return r;
}

}  // namespace nbody::app
