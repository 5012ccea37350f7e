#include "sim/core/simulation.hpp"

#include "sim/core/error.hpp"

namespace nbody {

Simulation::Simulation(Scene scene, const SimParams& params) : scene_(std::move(scene)) {
  scene_.bodies.validate(scene_.name.empty() ? "scene" : scene_.name);
  current_ = scene_;
  last_physics_ = params.physics();
  set_backend(params);
}

void Simulation::set_backend(const SimParams& params) {
  auto next = make_backend(params);  // throws before anything changes
  if (backend_ && current_stale_) {
    backend_->get_bodies(current_.bodies);
    current_stale_ = false;
  }
  next->set_bodies(current_.bodies);
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
  backend_->step(params, params.steps_per_frame);  // dt < 0: back in time
  time_ += params.dt * params.steps_per_frame;
  steps_ += params.steps_per_frame;
  current_stale_ = true;
  last_physics_ = params.physics();
}

void Simulation::reset() {
  current_ = scene_;
  current_stale_ = false;
  backend_->set_bodies(current_.bodies);
  time_ = 0;
  steps_ = 0;
  have_e0_ = false;
}

const Bodies& Simulation::bodies() const {
  return current().bodies;
}

const Scene& Simulation::current() const {
  if (current_stale_) {
    backend_->get_bodies(current_.bodies);
    current_stale_ = false;
  }
  return current_;
}

void Simulation::apply_edit(const Edit& e) {
  current();                       // download
  nbody::apply_edit(current_, e);  // throws with the state unchanged
  backend_->set_bodies(current_.bodies);
  have_e0_ = false;
}

std::vector<MergeEvent> Simulation::merge_touching(const MergeRule& rule, double softening) {
  current();  // download
  std::vector<MergeEvent> events = nbody::merge_touching(current_, rule, softening);
  if (!events.empty()) {
    backend_->set_bodies(current_.bodies);
    have_e0_ = false;
  }
  return events;
}

Snapshot Simulation::snapshot() const {
  Snapshot s;
  s.time = time_;
  s.steps = steps_;
  s.scene = std::make_shared<const Scene>(current());
  s.physics = last_physics_;
  s.initial_energy = e0_;
  s.has_initial_energy = have_e0_;
  return s;
}

void Simulation::restore(const Snapshot& s) {
  if (!s.scene) fail("restore: the snapshot holds no bodies");
  s.scene->bodies.validate("restore: the snapshot");
  current_ = *s.scene;
  current_stale_ = false;
  backend_->set_bodies(current_.bodies);
  time_ = s.time;
  steps_ = s.steps;
  e0_ = s.initial_energy;
  have_e0_ = s.has_initial_energy;
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
