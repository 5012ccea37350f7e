#include "sim/cpu_backend.hpp"

#include <omp.h>

#include <algorithm>

namespace nbody {

template <typename T>
int HostBackend<T>::thread_count(const SimParams& p) const {
  const int want = p.threads > 0 ? p.threads : omp_get_max_threads();
  // below a few hundred bodies a thread has too little work to pay for waking it
  const long n = static_cast<long>(size());
  return static_cast<int>(std::max(1L, std::min<long>(want, n / kMinBodiesPerThread)));
}

template <typename T>
void HostBackend<T>::set_bodies(const Bodies& b) {
  const std::size_t n = b.size();
  auto copy = [n](std::vector<T>& dst, const std::vector<double>& src) {
    dst.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      dst[i] = static_cast<T>(src[i]);
  };
  copy(x_, b.x);
  copy(y_, b.y);
  copy(z_, b.z);
  copy(vx_, b.vx);
  copy(vy_, b.vy);
  copy(vz_, b.vz);
  copy(m_, b.m);
  ax_.assign(n, T(0));
  ay_.assign(n, T(0));
  az_.assign(n, T(0));
  component_ = b.component;
  acc_valid_ = false;
}

template <typename T>
void HostBackend<T>::get_bodies(Bodies& b) const {
  const std::size_t n = size();
  if (b.size() != n) b.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    b.x[i] = x_[i];
    b.y[i] = y_[i];
    b.z[i] = z_[i];
    b.vx[i] = vx_[i];
    b.vy[i] = vy_[i];
    b.vz[i] = vz_[i];
    b.m[i] = m_[i];
  }
  if (component_.size() == n) b.component = component_;
}

template <typename T>
void HostBackend<T>::ensure_accelerations(const SimParams& p) {
  if (acc_valid_ && acc_G_ == p.G && acc_eps_ == p.softening) return;
  forces(static_cast<T>(p.G), static_cast<T>(p.softening * p.softening), thread_count(p));
  acc_valid_ = true;
  acc_G_ = p.G;
  acc_eps_ = p.softening;
}

template <typename T>
void HostBackend<T>::compute_accelerations(const SimParams& p, std::vector<double>& ax,
                                           std::vector<double>& ay, std::vector<double>& az) {
  acc_valid_ = false;
  ensure_accelerations(p);
  ax.assign(ax_.begin(), ax_.end());
  ay.assign(ay_.begin(), ay_.end());
  az.assign(az_.begin(), az_.end());
}

template <typename T>
void HostBackend<T>::step(const SimParams& p, int steps) {
  const auto t0 = std::chrono::steady_clock::now();
  const long n = static_cast<long>(size());
  const T dt = static_cast<T>(p.dt), half = static_cast<T>(0.5 * p.dt);
  // the reference is single-threaded
  const int nt = info_.name == "cpu-reference" ? 1 : thread_count(p);
  ensure_accelerations(p);
  for (int s = 0; s < steps; ++s) {
    // kick by half a step, then drift a whole step (seed 000 eq. 3-4)
#pragma omp parallel for schedule(static) num_threads(nt)
    for (long i = 0; i < n; ++i) {
      vx_[i] += half * ax_[i];
      vy_[i] += half * ay_[i];
      vz_[i] += half * az_[i];
      x_[i] += dt * vx_[i];
      y_[i] += dt * vy_[i];
      z_[i] += dt * vz_[i];
    }
    // forces at the new positions, then the second half kick (eq. 5)
    forces(static_cast<T>(p.G), static_cast<T>(p.softening * p.softening), thread_count(p));
#pragma omp parallel for schedule(static) num_threads(nt)
    for (long i = 0; i < n; ++i) {
      vx_[i] += half * ax_[i];
      vy_[i] += half * ay_[i];
      vz_[i] += half * az_[i];
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  last_ms_ = steps > 0 ? std::chrono::duration<double, std::milli>(t1 - t0).count() / steps : 0;
}

template class HostBackend<float>;
template class HostBackend<double>;

}  // namespace nbody
