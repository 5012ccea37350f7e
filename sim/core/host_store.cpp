#include "sim/core/host_store.hpp"

#include <omp.h>

#include <algorithm>
#include <type_traits>

#include "sim/forces/eih.hpp"
#include "sim/forces/external_field_host.hpp"
#include "sim/forces/post_newtonian.hpp"
#include "sim/integrators/integrator.hpp"

namespace nbody {

template <typename T>
int HostStore<T>::thread_count(const SimParams& p) const {
  if (info_.oracle) return 1;  // the oracle is single-threaded
  const int asked = info_.find_tunable("threads") ? info_.int_value(p, "threads") : 0;
  const int want = asked > 0 ? asked : omp_get_max_threads();
  // below a few hundred bodies a thread has too little work to pay for waking it
  const long n = static_cast<long>(size());
  return static_cast<int>(std::max(1L, std::min<long>(want, n / kMinBodiesPerThread)));
}

template <typename T>
void HostStore<T>::set_bodies(const Bodies& b) {
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
  halos_ = b.halos;
  anchor_.clear();
  for (const RigidHalo& h : halos_)
    anchor_.push_back(h.anchor);
  order_.clear();
  acc_valid_ = false;
  memory_.reset();
  work_ = {};
  // sources first: the heaviest body, the other massive ones, then the massless
  std::size_t heaviest = 0;
  const std::vector<std::uint32_t> perm = sources_first(b, n_massive_, heaviest);
  dominant_ = heaviest;  // permute() carries it to 0
  bool identity = true;
  for (std::size_t k = 0; k < n && identity; ++k)
    identity = perm[k] == k;
  if (!identity) permute(perm);
}

template <typename T>
void HostStore<T>::permute(const std::vector<std::uint32_t>& perm) {
  const std::size_t n = size();
  // identity permutation before the first reorder
  if (order_.empty()) {
    order_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      order_[i] = static_cast<std::uint32_t>(i);
  }
  // one gather per array, in parallel over the arrays (no allocation once warm)
  std::vector<T>* arrays[] = {&x_, &y_, &z_, &vx_, &vy_, &vz_, &m_, &ax_, &ay_, &az_};
  scratch_.resize(std::size(arrays));
#pragma omp parallel for schedule(static) if (n >= 65536)
  for (int a = 0; a < static_cast<int>(std::size(arrays)); ++a) {
    std::vector<T>& v = *arrays[a];
    std::vector<T>& tmp = scratch_[a];
    tmp.resize(n);
    for (std::size_t k = 0; k < n; ++k)
      tmp[k] = v[perm[k]];
    v.swap(tmp);
  }
  // the order, and where the dominant body (the 1PN source) and the halos' anchors went
  order_scratch_.resize(n);
  std::size_t dominant = dominant_;
  std::vector<std::uint32_t> anchor = anchor_;
  for (std::size_t k = 0; k < n; ++k) {
    order_scratch_[k] = order_[perm[k]];
    if (perm[k] == dominant_) dominant = k;
    for (std::size_t h = 0; h < anchor_.size(); ++h)
      if (perm[k] == anchor_[h]) anchor[h] = static_cast<std::uint32_t>(k);
  }
  order_.swap(order_scratch_);
  dominant_ = dominant;
  anchor_ = std::move(anchor);
}

template <typename T>
void HostStore<T>::get_bodies(Bodies& b) const {
  const std::size_t n = size();
  if (b.size() != n) b.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order_.empty() ? k : order_[k];
    b.x[i] = x_[k];
    b.y[i] = y_[k];
    b.z[i] = z_[k];
    b.vx[i] = vx_[k];
    b.vy[i] = vy_[k];
    b.vz[i] = vz_[k];
    b.m[i] = m_[k];
  }
  if (component_.size() == n) b.component = component_;
  b.halos = halos_;
}

template <typename T>
void HostStore<T>::ensure_accelerations(const SimParams& p) {
  if (acc_valid_ && acc_G_ == p.G && acc_eps_ == p.softening) return;
  run_forces(p, thread_count(p));
  acc_valid_ = true;
  acc_G_ = p.G;
  acc_eps_ = p.softening;
}

template <typename T>
void HostStore<T>::run_forces(const SimParams& p, int threads) {
  const double n = static_cast<double>(size()), sources = static_cast<double>(n_massive_);
  work_ = {n * sources,
           info_.flops(std::is_same_v<T, double> ? Precision::Double : Precision::Float),
           {},
           {}};
  kernel_->forces(p, *this, static_cast<T>(p.G), static_cast<T>(p.softening * p.softening), threads,
                  work_);
  // the rigid halos' field, after every kernel's own forces (sim/forces/external_field.hpp)
  if (!halos_.empty())
    apply_external_field<T>(make_external_field(halos_, p.G), anchor_.data(),
                            static_cast<long>(size()), x_.data(), y_.data(), z_.data(), m_.data(),
                            ax_.data(), ay_.data(), az_.data(), threads);
}

template <typename T>
void HostStore<T>::compute_accelerations(const SimParams& p, std::vector<double>& ax,
                                         std::vector<double>& ay, std::vector<double>& az) {
  acc_valid_ = false;
  ensure_accelerations(p);
  // in the user's order
  const std::size_t n = size();
  ax.resize(n);
  ay.resize(n);
  az.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order_.empty() ? k : order_[k];
    ax[i] = ax_[k];
    ay[i] = ay_[k];
    az[i] = az_[k];
  }
}

template <typename T>
void HostStore<T>::post_newtonian(const SimParams& p, double kick, int threads) {
  const long n = static_cast<long>(size());
  pnx_.resize(n);
  pny_.resize(n);
  pnz_.resize(n);
  if (n == 0) return;
  if (p.pn_model == PnModel::EIH) {
    eih(p, kick, threads);
    return;
  }
  // the dominant body's state half-way through the kick
  const std::size_t s = dominant_;
  const double h = 0.5 * kick;
  const double sx = x_[s], sy = y_[s], sz = z_[s];
  const double svx = vx_[s] + h * ax_[s], svy = vy_[s] + h * ay_[s], svz = vz_[s] + h * az_[s];
  const double mu = p.G * static_cast<double>(m_[s]);
  const double inv_c2 = 1.0 / (p.speed_of_light * p.speed_of_light);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (long i = 0; i < n; ++i) {
    double ax, ay, az;
    post_newtonian_accel<double>(x_[i] - sx, y_[i] - sy, z_[i] - sz, vx_[i] + h * ax_[i] - svx,
                                 vy_[i] + h * ay_[i] - svy, vz_[i] + h * az_[i] - svz, mu, inv_c2,
                                 ax, ay, az);
    pnx_[i] = static_cast<T>(ax);
    pny_[i] = static_cast<T>(ay);
    pnz_[i] = static_cast<T>(az);
  }
}

template <typename T>
void HostStore<T>::eih(const SimParams& p, double kick, int threads) {
  const std::size_t n = size();
  // in double, the massive bodies first (a kernel may have reordered the store), each at its
  // velocity half-way through the kick
  eih_index_.clear();
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < n; ++i)
      if ((m_[i] > T(0)) == (pass == 0)) eih_index_.push_back(static_cast<std::uint32_t>(i));
  std::vector<double>& w = eih_work_;
  w.resize(10 * n);
  double *x = w.data(), *y = x + n, *z = y + n, *vx = z + n, *vy = vx + n, *vz = vy + n;
  double *mu = vz + n, *ax = mu + n, *ay = ax + n, *az = ay + n;
  const double h = 0.5 * kick;
  std::size_t massive = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = eih_index_[k];
    x[k] = x_[i], y[k] = y_[i], z[k] = z_[i];
    vx[k] = vx_[i] + h * ax_[i], vy[k] = vy_[i] + h * ay_[i], vz[k] = vz_[i] + h * az_[i];
    mu[k] = p.G * static_cast<double>(m_[i]);
    if (m_[i] > T(0)) ++massive;
  }
  const double inv_c2 = 1.0 / (p.speed_of_light * p.speed_of_light);
  eih_accelerations({n, massive, x, y, z, vx, vy, vz, mu, inv_c2}, ax, ay, az, threads);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = eih_index_[k];
    pnx_[i] = static_cast<T>(ax[k]);
    pny_[i] = static_cast<T>(ay[k]);
    pnz_[i] = static_cast<T>(az[k]);
  }
}

template <typename T>
void HostStore<T>::kick_drift(const SimParams& p, double kick, double drift, int threads) {
  const long n = static_cast<long>(size());
  const T k = static_cast<T>(kick * p.dt), d = static_cast<T>(drift * p.dt);
  if (p.post_newtonian) {
    post_newtonian(p, kick * p.dt, threads);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long i = 0; i < n; ++i) {
      vx_[i] += k * (ax_[i] + pnx_[i]);
      vy_[i] += k * (ay_[i] + pny_[i]);
      vz_[i] += k * (az_[i] + pnz_[i]);
      x_[i] += d * vx_[i];
      y_[i] += d * vy_[i];
      z_[i] += d * vz_[i];
    }
    return;
  }
#pragma omp parallel for schedule(static) num_threads(threads)
  for (long i = 0; i < n; ++i) {
    vx_[i] += k * ax_[i];
    vy_[i] += k * ay_[i];
    vz_[i] += k * az_[i];
    x_[i] += d * vx_[i];
    y_[i] += d * vy_[i];
    z_[i] += d * vz_[i];
  }
}

template <typename T>
void HostStore<T>::total_accelerations(const SimParams& p, HostState& s, int threads) {
  const std::size_t n = size();
  if (p.post_newtonian) post_newtonian(p, 0.0, threads);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = user_index(k);
    s.ax[i] = static_cast<double>(ax_[k]);
    s.ay[i] = static_cast<double>(ay_[k]);
    s.az[i] = static_cast<double>(az_[k]);
    if (p.post_newtonian) {
      s.ax[i] += static_cast<double>(pnx_[k]);
      s.ay[i] += static_cast<double>(pny_[k]);
      s.az[i] += static_cast<double>(pnz_[k]);
    }
  }
}

template <typename T>
void HostStore<T>::read_state(const SimParams& p, HostState& s, int threads) {
  const std::size_t n = size();
  s.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = user_index(k);
    s.x[i] = x_[k];
    s.y[i] = y_[k];
    s.z[i] = z_[k];
    s.vx[i] = vx_[k];
    s.vy[i] = vy_[k];
    s.vz[i] = vz_[k];
    s.m[i] = m_[k];
  }
  total_accelerations(p, s, threads);
}

template <typename T>
void HostStore<T>::state_accelerations(const SimParams& p, HostState& s, int threads) {
  write_state(s, false);
  run_forces(p, threads);  // a tree kernel may reorder the store: user_index() follows
  total_accelerations(p, s, threads);
  acc_valid_ = true;
  acc_G_ = p.G;
  acc_eps_ = p.softening;
}

template <typename T>
void HostStore<T>::write_state(const HostState& s, bool accelerations_current) {
  const std::size_t n = size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = user_index(k);
    x_[k] = static_cast<T>(s.x[i]);
    y_[k] = static_cast<T>(s.y[i]);
    z_[k] = static_cast<T>(s.z[i]);
    vx_[k] = static_cast<T>(s.vx[i]);
    vy_[k] = static_cast<T>(s.vy[i]);
    vz_[k] = static_cast<T>(s.vz[i]);
  }
  if (!accelerations_current) acc_valid_ = false;
}

template <typename T>
void HostStore<T>::step(const SimParams& p, int steps) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  if (steps <= 0) {
    last_ms_ = 0;
    return;
  }
  const int nt = thread_count(p);
  ensure_accelerations(p);
  // what the integrator composes a step from: this store's kicks and drifts around the
  // kernel's forces (the time in kicks and drifts is the "integrate" phase), or its state
  struct Ops final : StepOps, StateOps {
    HostStore& b;
    int threads;
    StepWork total;
    double integrate_ms = 0;
    Ops(HostStore& backend, int nt) : b(backend), threads(nt) {}
    StateOps* state() override { return this; }
    void read(const SimParams& q, HostState& s) override { b.read_state(q, s, threads); }
    void accelerations(const SimParams& q, HostState& s) override {
      b.state_accelerations(q, s, threads);
      total.add(b.work_);
    }
    void write(const HostState& s, bool current) override { b.write_state(s, current); }
    std::unique_ptr<IntegratorMemory>& memory() override { return b.memory_; }
    void evaluate_forces(const SimParams& q) override {
      b.run_forces(q, b.thread_count(q));
      total.add(b.work_);
    }
    void kick_drift(const SimParams& q, double kick, double drift) override {
      const auto k0 = clock::now();
      b.kick_drift(q, kick, drift, threads);
      integrate_ms += std::chrono::duration<double, std::milli>(clock::now() - k0).count();
    }
    void closing_kick(const SimParams& q, double kick) override { kick_drift(q, kick, 0.0); }
  } ops(*this, nt);
  // another integrator's memory is of no use to this one
  if (memory_owner_ != static_cast<int>(p.integrator)) memory_.reset();
  memory_owner_ = static_cast<int>(p.integrator);
  find_integrator(p.integrator).run(ops, p, steps);
  ensure_accelerations(p);  // a state integrator may leave them stale
  StepWork& total = ops.total;
  const double integrate_ms = ops.integrate_ms;
  const auto t1 = clock::now();
  last_ms_ = steps > 0 ? std::chrono::duration<double, std::milli>(t1 - t0).count() / steps : 0;
  // per step (the interactions of every force evaluation of the step)
  if (steps > 0) {
    if (!total.phases.empty()) total.phases.push_back({"integrate", integrate_ms});
    total.per_step(steps);
    work_ = std::move(total);
  }
}

template class HostStore<float>;
template class HostStore<double>;

}  // namespace nbody
