#include "sim/simulation.hpp"

#include "sim/error.hpp"

namespace nbody {

Simulation::Simulation(Scene scene, const SimParams& params) : scene_(std::move(scene)) {
  scene_.bodies.validate(scene_.name.empty() ? "scene" : scene_.name);
  current_ = scene_.bodies;
  set_backend(params);
}

void Simulation::set_backend(const SimParams& params) {
  auto next = make_backend(params);  // throws before anything changes
  if (backend_ && current_stale_) {
    backend_->get_bodies(current_);
    current_stale_ = false;
  }
  next->set_bodies(current_);
  backend_ = std::move(next);
  backend_name_ = params.kernel;
  backend_precision_ = params.precision;
  backend_gpus_ = params.gpus;
}

void Simulation::step(const SimParams& params) {
  if (params.kernel != backend_name_ || params.precision != backend_precision_ ||
      (params.gpus != backend_gpus_ && backend_->info().gpu))
    set_backend(params);
  validate(params);
  validate_kernel_params(params);
  backend_->step(params, params.steps_per_frame);
  time_ += params.dt * params.steps_per_frame;
  steps_ += params.steps_per_frame;
  current_stale_ = true;
}

void Simulation::reset() {
  current_ = scene_.bodies;
  current_stale_ = false;
  backend_->set_bodies(current_);
  time_ = 0;
  steps_ = 0;
  have_e0_ = false;
}

const Bodies& Simulation::bodies() {
  if (current_stale_) {
    backend_->get_bodies(current_);
    current_stale_ = false;
  }
  return current_;
}

Diagnostics Simulation::diagnostics(const SimParams& params) {
  Diagnostics d = compute_diagnostics(bodies(), params.G, params.softening);
  if (!have_e0_) {
    e0_ = d.total;
    have_e0_ = true;
  }
  return d;
}

}  // namespace nbody
