#include "app/window/startup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/runner/sim_runner.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/scene.hpp"
#include "sim/core/simulation.hpp"

namespace nbody::app {
namespace {

// wall milliseconds per step of `kernel` on `scene` at n: one warm-up step, then the fastest of
// up to 5 steps within 0.3 s (the minimum is robust against other programs on the machine)
double time_step(const std::string& scene_name, const std::string& kernel, std::size_t n,
                 const std::map<std::string, double>& values) {
  SceneParams sp;
  sp.n = n;
  sp.values = values;
  Scene scene = make_scene(scene_name, sp);
  SimParams p = params_for_kernel(SimParams{}, kernel);
  p.dt = scene.dt;
  p.softening = scene.softening;
  p.G = scene.units.G;
  Simulation sim(std::move(scene), p);
  sim.step(p);
  int steps = 0;
  double t0 = now_seconds(), best = 1e300;
  while (steps < 5 && (steps == 0 || now_seconds() - t0 < 0.3)) {
    double s0 = now_seconds();
    sim.step(p);
    best = std::min(best, now_seconds() - s0);
    ++steps;
  }
  return best * 1e3;
}

std::string line(const std::string& kernel, std::size_t n, double ms) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s at N = %s: %.3g ms/step", kernel.c_str(),
                with_commas(n).c_str(), ms);
  return buf;
}

}  // namespace

std::string with_commas(std::size_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

StartupMeasurement measure_startup(const std::string& scene,
                                   const std::vector<std::string>& kernels, std::size_t n_min,
                                   std::size_t n_max, double target_ms,
                                   const std::map<std::string, double>& values) {
  StartupMeasurement m;
  // every kernel: its step at a probe size, then the largest power-of-two N whose measured step
  // stays under the target; the kernel that reaches the largest N wins (ties: the faster step),
  // so a tree kernel wins where it overtakes the direct sum on this machine
  const std::size_t probe = std::clamp<std::size_t>(n_min * 2, n_min, n_max);
  double win_ms = 0;
  for (const std::string& k : kernels) {
    try {
      double best = time_step(scene, k, probe, values);
      m.lines.push_back(line(k, probe, best));
      // O(N²) at worst: the N the target allows, as a power of two, then measured
      const double want = static_cast<double>(probe) * std::sqrt(target_ms / std::max(best, 1e-6));
      std::size_t n = n_min;
      while (n * 2 <= n_max && static_cast<double>(n * 2) <= want)
        n *= 2;
      double ms = n == probe ? best : time_step(scene, k, n, values);
      if (n != probe) m.lines.push_back(line(k, n, ms));
      while (ms > target_ms && n / 2 >= n_min) {
        n /= 2;
        ms = time_step(scene, k, n, values);
        m.lines.push_back(line(k, n, ms));
      }
      // a noisy probe or a kernel better than O(N²) (Barnes-Hut): grow while there is room
      while (ms * 2.5 < target_ms && n * 2 <= n_max) {
        const double next = time_step(scene, k, n * 2, values);
        m.lines.push_back(line(k, n * 2, next));
        if (next > target_ms) break;
        n *= 2;
        ms = next;
      }
      if (ms > target_ms) continue;  // not even n_min fits
      if (m.kernel.empty() || n > m.n || (n == m.n && ms < win_ms)) {
        m.kernel = k;
        m.n = n;
        win_ms = ms;
      }
    } catch (const std::exception& e) {
      m.lines.push_back(k + ": " + e.what());
    }
  }
  if (m.kernel.empty()) {
    // nothing fits the target: the smallest N on the fastest kernel at the probe
    for (const std::string& k : kernels) {
      try {
        const double ms = time_step(scene, k, n_min, values);
        m.lines.push_back(line(k, n_min, ms));
        if (m.kernel.empty() || ms < win_ms) m.kernel = k, win_ms = ms, m.n = n_min;
      } catch (const std::exception& e) {
        m.lines.push_back(k + ": " + e.what());
      }
    }
  }
  if (m.kernel.empty()) fail("no kernel ran at start-up: ", m.lines.empty() ? "" : m.lines[0]);
  m.step_ms = win_ms;
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "N = %s on %s: %.3g ms/step measured at start-up (the largest N under %.0f ms "
                "of %zu kernels tried)",
                with_commas(m.n).c_str(), m.kernel.c_str(), win_ms, target_ms, kernels.size());
  m.summary = buf;
  return m;
}

StartupMeasurement measure_fixed_start(const std::string& scene, const std::string& kernel,
                                       std::size_t n, std::size_t n_min, double target_ms,
                                       const std::map<std::string, double>& values) {
  StartupMeasurement m;
  m.kernel = kernel;
  m.n = n;
  m.step_ms = time_step(scene, kernel, n, values);
  m.lines.push_back(line(kernel, n, m.step_ms));
  const std::size_t chosen = n;
  while (m.step_ms > 5 * target_ms && m.n / 2 >= n_min) {
    m.n /= 2;
    m.step_ms = time_step(scene, kernel, m.n, values);
    m.lines.push_back(line(kernel, m.n, m.step_ms));
  }
  char buf[240];
  if (m.n == chosen)
    std::snprintf(buf, sizeof buf,
                  "N = %s on %s: %.3g ms/step measured at start-up (this machine's default; "
                  "-n and --kernel choose others)",
                  with_commas(m.n).c_str(), kernel.c_str(), m.step_ms);
  else
    std::snprintf(buf, sizeof buf,
                  "N = %s on %s: %.3g ms/step measured at start-up (the default %s took over "
                  "%.0f ms a step here)",
                  with_commas(m.n).c_str(), kernel.c_str(), m.step_ms, with_commas(chosen).c_str(),
                  5 * target_ms);
  m.summary = buf;
  return m;
}

}  // namespace nbody::app
