#include "sim/kernel_compare.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include "sim/error.hpp"

namespace nbody {

std::vector<CompareEntry> compare_entries(bool gpu) {
  std::vector<CompareEntry> out;
  for (const KernelInfo& k : kernel_table()) {
    if (k.gpu != gpu) continue;
    out.push_back({k.name, k.name, {}});
    // one trick at a time: each other choice of each choice tunable, the rest at defaults
    for (const Tunable& t : k.tunables) {
      if (t.kind != TunableKind::Choice) continue;
      for (std::size_t c = 0; c < t.choices.size(); ++c)
        if (static_cast<double>(c) != t.def)
          out.push_back({k.name + " " + t.key + "=" + t.choices[c],
                         k.name,
                         {{t.key, static_cast<double>(c)}}});
    }
  }
  return out;
}

KernelComparison::KernelComparison(Bodies bodies, const SimParams& base,
                                   std::vector<CompareEntry> entries, std::size_t sample,
                                   double seconds)
    : bodies_(std::move(bodies)),
      base_(base),
      entries_(std::move(entries)),
      idx_(sample_indices(bodies_.size(), sample)),
      seconds_(seconds) {}

const KernelComparison::Reference& KernelComparison::reference(Precision p) {
  Reference& r = p == Precision::Double ? ref_double_ : ref_float_;
  if (r.ready) return r;
  // the bodies as a backend of precision p holds them
  Bodies held = bodies_;
  if (p == Precision::Float)
    for (auto* v : {&held.x, &held.y, &held.z, &held.m})
      for (double& e : *v)
        e = static_cast<float>(e);
  reference_accelerations(held, idx_, base_.G, base_.softening, r.ax, r.ay, r.az);
  r.ready = true;
  return r;
}

void KernelComparison::run_next() {
  if (done()) return;
  CompareOutcome o;
  o.entry = entries_[next_++];
  try {
    const KernelInfo& k = find_kernel(o.entry.kernel);
    SimParams p = base_;
    p.kernel = k.name;
    p.tunables = o.entry.tunables;
    if (!k.supports_float) p.precision = Precision::Double;
    if (!k.supports_double) p.precision = Precision::Float;
    // a CPU direct sum (no opening angle) takes seconds per step at large N
    if (!k.gpu && !k.tree && bodies_.size() > kCpuDirectMaxN)
      fail(k.name, ": compared up to N = ", kCpuDirectMaxN, " (a step takes seconds above it)");
    auto be = make_backend(p);
    be->set_bodies(bodies_);
    // the force error on the sample
    std::vector<double> ax, ay, az, sx, sy, sz;
    be->compute_accelerations(p, ax, ay, az);
    for (std::size_t i : idx_) {
      sx.push_back(ax[i]);
      sy.push_back(ay[i]);
      sz.push_back(az[i]);
    }
    const Reference& ref = reference(p.precision);
    const AccelError e = acceleration_error(sx, sy, sz, ref.ax, ref.ay, ref.az);
    o.err_median = e.median;
    o.err_max = e.max;
    // one warm-up step, then about `seconds_` of steps
    be->step(p, 1);
    const double t1 = std::max(1e-6, be->last_step_ms());
    const int steps = std::clamp(static_cast<int>(seconds_ * 1e3 / t1), 1, 1000);
    be->step(p, steps);
    o.ms_per_step = be->last_step_ms();
    const double work = be->last_work().interactions;
    o.interactions_per_s = o.ms_per_step > 0 ? work / (o.ms_per_step * 1e-3) : 0;
  } catch (const std::exception& ex) {
    o.error = ex.what();
  }
  results_.push_back(std::move(o));
}

std::string KernelComparison::status() const {
  if (done()) return {};
  return entries_[next_].label + " (" + std::to_string(entries_.size() - next_ - 1) + " more)";
}

}  // namespace nbody
