#include "sim/analysis/accuracy_probe.hpp"

#include <algorithm>
#include <chrono>

#include "sim/core/error.hpp"

namespace nbody {

AccuracyProbe::~AccuracyProbe() {
  if (job_.valid()) job_.wait();
}

bool AccuracyProbe::busy() const {
  return job_.valid() && job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
}

bool AccuracyProbe::start(const Bodies& bodies, const std::vector<double>& ax,
                          const std::vector<double>& ay, const std::vector<double>& az, double G,
                          double softening, std::size_t sample, std::string kernel,
                          double sim_time) {
  if (busy()) return false;
  const std::size_t n = bodies.size();
  if (ax.size() != n || ay.size() != n || az.size() != n)
    fail("accuracy check: ", ax.size(), " accelerations for ", n, " bodies");
  // only the sampled accelerations travel to the worker; the bodies are copied once
  const std::vector<std::size_t> idx = sample_indices(n, std::max<std::size_t>(sample, 256));
  std::vector<double> sx, sy, sz;
  for (std::size_t i : idx) {
    sx.push_back(ax[i]);
    sy.push_back(ay[i]);
    sz.push_back(az[i]);
  }
  job_ = std::async(std::launch::async,
                    [b = bodies, idx, sx = std::move(sx), sy = std::move(sy), sz = std::move(sz), G,
                     softening, kernel = std::move(kernel), sim_time] {
                      std::vector<double> rx, ry, rz;
                      reference_accelerations(b, idx, G, softening, rx, ry, rz);
                      AccuracyReport r;
                      r.error = acceleration_error(sx, sy, sz, rx, ry, rz);
                      r.sample = idx.size();
                      r.n = b.size();
                      r.kernel = kernel;
                      r.sim_time = sim_time;
                      return r;
                    });
  return true;
}

std::optional<AccuracyReport> AccuracyProbe::poll() {
  if (!job_.valid() || busy()) return std::nullopt;
  return job_.get();
}

}  // namespace nbody
