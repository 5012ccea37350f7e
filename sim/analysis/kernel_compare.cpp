#include "sim/analysis/kernel_compare.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include "sim/core/error.hpp"

namespace nbody {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// interactions of one step, roughly: a tree's body meets ~150 log2 N cells and bodies at the
// default opening angle
double work_per_step(const KernelInfo& k, double n) {
  return k.tree ? n * std::min(n, 150.0 * std::log2(std::max(n, 2.0))) : n * n;
}

// "about 9 s", "about 2 min"
std::string about(double s) {
  char buf[48];
  if (s < 1)
    std::snprintf(buf, sizeof buf, "under a second");
  else if (s < 90)
    std::snprintf(buf, sizeof buf, "about %.0f s", s);
  else
    std::snprintf(buf, sizeof buf, "about %.0f min", s / 60);
  return buf;
}

}  // namespace

CompareEstimate KernelComparison::estimate(const std::vector<CompareEntry>& entries, std::size_t n,
                                           const std::string& live_kernel, double live_step_ms,
                                           const std::vector<CompareOutcome>& earlier,
                                           double seconds) {
  CompareEstimate e;
  e.measured = !entries.empty();
  const KernelInfo* live = nullptr;
  for (const KernelInfo& k : kernel_table())
    if (k.name == live_kernel) live = &k;
  const double dn = static_cast<double>(n);
  for (const CompareEntry& c : entries) {
    const CompareOutcome* before = nullptr;
    for (const CompareOutcome& o : earlier)
      if (o.entry.label == c.label && o.n == n && o.wall_s > 0) before = &o;
    if (before) {
      e.seconds += before->wall_s;
      continue;
    }
    e.measured = false;
    const KernelInfo* k = nullptr;
    for (const KernelInfo& row : kernel_table())
      if (row.name == c.kernel) k = &row;
    if (!k) continue;                                         // run_next() reports it at once
    if (!k->gpu && !k->tree && n > kCpuDirectMaxN) continue;  // refused at once
    // the live kernel's time per interaction, moved across CPU and GPU by a factor of 100
    double step_s = 1e-3;
    if (live && live_step_ms > 0) {
      step_s = live_step_ms * 1e-3 * work_per_step(*k, dn) / work_per_step(*live, dn);
      if (k->gpu != live->gpu) step_s *= k->gpu ? 0.01 : 100.0;
    }
    if (k->gpu) step_s = std::max(step_s, 5e-5);
    // the force check, a warm-up step and `seconds` of steps; a slow kernel's check and one step
    e.seconds += step_s > seconds ? 2 * step_s : seconds + 2 * step_s;
  }
  return e;
}

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
  const double t0 = now_s();
  if (started_ < 0) started_ = t0;
  CompareOutcome o;
  o.entry = entries_[next_++];
  o.n = bodies_.size();
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
    const double check0 = now_s();
    be->compute_accelerations(p, ax, ay, az);
    const double check_s = now_s() - check0;
    for (std::size_t i : idx_) {
      sx.push_back(ax[i]);
      sy.push_back(ay[i]);
      sz.push_back(az[i]);
    }
    const Reference& ref = reference(p.precision);
    const AccelError e = acceleration_error(sx, sy, sz, ref.ax, ref.ay, ref.az);
    o.err_median = e.median;
    o.err_max = e.max;
    // one warm-up step, then about `seconds_` of steps; a kernel whose force check alone took
    // longer is warm already and timed on one step (the check is a step's forces)
    int steps = 1;
    if (check_s <= seconds_) {
      be->step(p, 1);
      const double t1 = std::max(1e-6, be->last_step_ms());
      steps = std::clamp(static_cast<int>(seconds_ * 1e3 / t1), 1, 1000);
    }
    be->step(p, steps);
    o.ms_per_step = be->last_step_ms();
    const double work = be->last_work().interactions;
    o.interactions_per_s = o.ms_per_step > 0 ? work / (o.ms_per_step * 1e-3) : 0;
  } catch (const std::exception& ex) {
    o.error = ex.what();
  }
  o.wall_s = now_s() - t0;
  results_.push_back(std::move(o));
}

std::string KernelComparison::status() const {
  if (done()) return {};
  std::string s = entries_[next_].label + ": " + std::to_string(next_ + 1) + " of " +
                  std::to_string(entries_.size());
  if (results_.empty()) return s;
  double spent = 0;
  for (const CompareOutcome& o : results_)
    spent += o.wall_s;
  const double left = spent / static_cast<double>(results_.size()) *
                      static_cast<double>(entries_.size() - results_.size());
  char buf[48];
  std::snprintf(buf, sizeof buf, ", %.1f s so far, ", elapsed_s());
  return s + buf + about(left) + " left";
}

double KernelComparison::elapsed_s() const {
  return started_ < 0 ? 0.0 : now_s() - started_;
}

}  // namespace nbody
