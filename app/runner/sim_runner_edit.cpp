// The simulation thread's hands-on part (issue 19): edits and their undo, the timeline of kept
// snapshots (rewind), selection by point or box, the cards of inspected bodies, the predicted
// path of a body being placed, merging bodies that touch, and saving the whole state.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <utility>

#include "app/core/state_file.hpp"
#include "app/runner/sim_runner.hpp"
#include "sim/core/error.hpp"
#include "sim/edit/preview.hpp"

namespace nbody::app {

namespace {

// cards are measured this often (seconds) up to this N, and less often above
constexpr std::size_t kCardsFastN = 100000;
constexpr double kCardsFastS = 0.1, kCardsSlowS = 0.5;
// the predicted path of a body being placed is recomputed this often while it changes
constexpr double kPreviewS = 0.03;
constexpr int kPreviewPoints = 256;
// the timeline keeps a snapshot at most this often (seconds of wall time), and the time a
// snapshot takes at most this fraction of the run
constexpr double kRecordEveryS = 0.5, kRecordShare = 0.05;
// merging above kCardsFastN bodies is looked for this often (seconds)
constexpr double kMergeEveryS = 1.0;

}  // namespace

void SimRunner::bodies_changed() {
  ++live_.edit_serial;
  current_ = std::make_shared<const Scene>(sim_->current());
  live_.shows_structure = shows_structure(*current_);
  // the energy changed by the edit: drift is measured from the new state; the structure, the
  // accuracy and the tree are measured again
  forget(Forget::Bodies);
  trail_local_.clear();
  trail_local_samples_ = 0;
  trail_phase_ = 0;
  positions_dirty_ = true;
  cards_of_.clear();  // measured again now
  last_cards_ = 0;
  reset_pacing();
}

void SimRunner::forget_edits() {
  // a new scene or a reset: the edits, their undo and the kept snapshots belong to the old run
  const bool edited = current_ != nullptr;
  current_.reset();
  undo_.clear();
  timeline_.clear();
  gesture_ = 0;
  gesture_before_.reset();
  live_.selection.clear();
  ++live_.selection_serial;
  live_.additive_selection = false;
  live_.cards.clear();
  cards_of_.clear();
  live_.preview.clear();
  preview_of_.reset();
  preview_field_.reset();
  live_.mergers = 0;
  last_record_ = 0;
  if (edited) ++live_.edit_serial;
}

void SimRunner::apply_edit_request(const SimRequest& r) {
  const std::string label = describe(r.edit);
  try {
    const bool continuing = r.gesture > 0 && r.gesture == gesture_ && gesture_before_;
    std::optional<Snapshot> before;
    if (!continuing) before = sim_->snapshot();
    sim_->apply_edit(r.edit);
    if (r.gesture > 0 && !continuing) {
      gesture_ = r.gesture;
      gesture_before_ = std::move(before);
      gesture_label_ = label;
    } else if (r.gesture == 0) {
      undo_.push(label, std::move(*before), sim_->snapshot());
    }
    if (r.gesture > 0 && r.gesture_end && gesture_before_) {
      undo_.push(gesture_label_, std::move(*gesture_before_), sim_->snapshot());
      gesture_before_.reset();
      gesture_ = 0;
    }
    // the future the timeline kept is not this one any more
    timeline_.truncate_after(sim_->time());
    bodies_changed();
    if (r.gesture == 0) set_message(label);
  } catch (const std::exception& e) {
    set_error("edit refused (" + label + "): " + e.what());
  }
}

void SimRunner::apply_undo(bool redo) {
  // an unfinished gesture ends here
  if (gesture_before_) {
    undo_.push(gesture_label_, std::move(*gesture_before_), sim_->snapshot());
    gesture_before_.reset();
    gesture_ = 0;
  }
  const std::string label = redo ? undo_.redo_label() : undo_.undo_label();
  const Snapshot* s = redo ? undo_.redo() : undo_.undo();
  if (!s) {
    set_message(redo ? "nothing to redo" : "nothing to undo");
    return;
  }
  restore_snapshot(*s, (redo ? "redo: " : "undo: ") + label);
}

void SimRunner::apply_rewind(double time) {
  const Snapshot* s = timeline_.at_or_before(time);
  if (!s) {
    set_message("no snapshot kept at or before that time");
    return;
  }
  std::ostringstream os;
  os << "back to t = " << s->time << " " << (current_ ? current_ : scene_)->units.time << " ("
     << s->steps << " steps)";
  restore_snapshot(*s, os.str());
}

void SimRunner::restore_snapshot(const Snapshot& s, const std::string& what) {
  try {
    sim_->restore(s);
  } catch (const std::exception& e) {
    set_error(what + " failed: " + e.what());
    return;
  }
  bodies_changed();
  set_message(what);
}

void SimRunner::apply_select(const SimRequest& r) {
  const Selector& q = r.selector;
  const Bodies& b = sim_->bodies();
  const float* m = q.view_proj.data();  // column-major
  const float w = static_cast<float>(std::max(q.width, 1)),
              h = static_cast<float>(std::max(q.height, 1));
  const float bx0 = std::min(q.x0, q.x1), bx1 = std::max(q.x0, q.x1);
  const float by0 = std::min(q.y0, q.y1), by1 = std::max(q.y0, q.y1);
  std::vector<std::size_t> chosen;
  long best = -1;
  float best_d2 = q.radius * q.radius, best_depth = 2;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const auto c = static_cast<std::size_t>(b.component[i]);
    if (!q.shown.empty() && c < q.shown.size() && !q.shown[c]) continue;
    const glm::vec3 p =
        render::map_point(q.dmap, glm::vec3(static_cast<float>(b.x[i]), static_cast<float>(b.y[i]),
                                            static_cast<float>(b.z[i])));
    const float x = p.x, y = p.y, z = p.z;
    const float cw = m[3] * x + m[7] * y + m[11] * z + m[15];
    if (!(cw > 0)) continue;  // behind the camera
    const float nx = (m[0] * x + m[4] * y + m[8] * z + m[12]) / cw;
    const float ny = (m[1] * x + m[5] * y + m[9] * z + m[13]) / cw;
    const float nz = (m[2] * x + m[6] * y + m[10] * z + m[14]) / cw;
    if (nz < -1 || nz > 1) continue;
    const float px = (nx * 0.5f + 0.5f) * w, py = (0.5f - ny * 0.5f) * h;
    if (q.box) {
      if (px >= bx0 && px <= bx1 && py >= by0 && py <= by1) chosen.push_back(i);
      continue;
    }
    const float d2 = (px - q.x0) * (px - q.x0) + (py - q.y0) * (py - q.y0);
    // the nearest on screen; of bodies drawn within two pixels of each other, the front one
    if (d2 < best_d2 - 4 || (d2 <= best_d2 + 4 && nz < best_depth)) {
      best = static_cast<long>(i);
      best_d2 = std::min(d2, best_d2);
      best_depth = nz;
    }
  }
  if (!q.box && best >= 0) chosen.push_back(static_cast<std::size_t>(best));
  live_.selection = std::move(chosen);
  live_.additive_selection = r.additive;
  ++live_.selection_serial;
}

void SimRunner::apply_save(const SimRequest& r) {
  try {
    if (!r.save) return;
    r.save(sim_->current(), live_.params, sim_->time(), sim_->steps_done());
    set_message("saved " + r.path + ": " + std::to_string(sim_->size()) +
                " bodies at t = " + std::to_string(sim_->time()));
  } catch (const std::exception& e) {
    set_error(std::string("save failed: ") + e.what());
  }
}

void SimRunner::merge_touching_bodies(const SimControls& c) {
  if (!c.merge || sim_->size() < 2) return;
  // large N: the search (and a GPU kernel's download) at most every kMergeEveryS
  const double now = now_seconds();
  if (sim_->size() > kCardsFastN && now - last_merge_ < kMergeEveryS) return;
  last_merge_ = now;
  try {
    const std::size_t n0 = sim_->size();
    std::vector<MergeEvent> events = sim_->merge_touching(c.merge_rule, live_.params.softening);
    if (events.empty()) return;
    live_.mergers += static_cast<long long>(n0 - sim_->size());
    const MergeEvent& e = events.front();
    std::string msg = "merged: " + (e.absorbed.empty() ? std::string("?") : e.absorbed.front()) +
                      " into " + e.survivor;
    if (events.size() > 1) msg += " and " + std::to_string(events.size() - 1) + " more";
    // the merger is part of the run: the timeline's future and the undo entries stay valid
    bodies_changed();
    set_message(msg);
  } catch (const std::exception& e) {
    set_error(std::string("merging stopped: ") + e.what());
  }
}

void SimRunner::record_timeline(const SimControls& c) {
  const std::size_t budget = static_cast<std::size_t>(std::max(c.timeline_budget_mb, 0)) << 20;
  timeline_.set_budget(budget);
  if (!(live_.params.dt > 0) || budget == 0) return;  // not while running backwards
  const double now = now_seconds();
  const double every = std::max(kRecordEveryS, record_cost_s_ / kRecordShare);
  if (last_record_ > 0 && now - last_record_ < every) return;
  last_record_ = now;
  Snapshot s = sim_->snapshot();
  timeline_.truncate_after(s.time);  // after a rewind: the run from there is the new future
  timeline_.record(std::move(s));
  record_cost_s_ = now_seconds() - now;
}

void SimRunner::update_cards(const SimControls& c, bool force) {
  const double now = now_seconds();
  // the predicted path of a body being placed
  if (!c.probe) {
    live_.preview.clear();
    preview_of_.reset();
    preview_field_.reset();
  } else {
    const bool same = preview_of_ && preview_of_->x == c.probe->x && preview_of_->y == c.probe->y &&
                      preview_of_->z == c.probe->z && preview_of_->vx == c.probe->vx &&
                      preview_of_->vy == c.probe->vy && preview_of_->vz == c.probe->vz &&
                      preview_of_->m == c.probe->m;
    if (!same && now - last_preview_ >= kPreviewS) {
      last_preview_ = now;
      preview_of_ = c.probe;
      try {
        // the field the probe moves in: made when the drag starts, again each second after
        if (!preview_field_ || now - preview_field_made_ > 1.0) {
          preview_field_ = std::make_unique<PreviewField>(preview_field(sim_->current()));
          preview_field_made_ = now;
        }
        const PathPreview path = preview_path(*preview_field_, *c.probe, live_.params.G,
                                              live_.params.softening, kPreviewPoints);
        live_.preview.resize(path.points.size());
        for (std::size_t i = 0; i < path.points.size(); ++i)
          live_.preview[i] = {static_cast<float>(path.points[i][0]),
                              static_cast<float>(path.points[i][1]),
                              static_cast<float>(path.points[i][2])};
      } catch (const std::exception&) {
        live_.preview.clear();
      }
    }
  }
  // the cards of the inspected bodies
  const std::vector<std::size_t> inspect = inspected(c);
  if (inspect.empty()) {
    live_.cards.clear();
    cards_of_.clear();
    return;
  }
  const double every = sim_->size() <= kCardsFastN ? kCardsFastS : kCardsSlowS;
  if (!force && inspect == cards_of_ && now - last_cards_ < every) return;
  last_cards_ = now;
  cards_of_ = inspect;
  live_.cards.clear();
  const Scene& cur = sim_->current();
  for (std::size_t i : inspect) {
    if (i >= cur.bodies.size()) continue;
    try {
      live_.cards.push_back(body_card(cur, i, live_.params.G, live_.params.softening));
    } catch (const std::exception&) {
    }
  }
}

void SimRunner::publish_undo() {
  SimState& s = live_;
  const std::vector<std::string> labels = undo_.labels();
  const auto cut =
      labels.begin() + static_cast<std::ptrdiff_t>(std::min(undo_.cursor(), labels.size()));
  s.undo_labels.assign(labels.begin(), cut);
  s.redo_labels.assign(cut, labels.end());
  s.timeline = timeline_.times();
  s.timeline_bytes = timeline_.bytes();
}

void SimRunner::apply_load_state(const SimRequest& r) {
  RestoredState st;
  try {
    st = load_state_file(r.path);
  } catch (const std::exception& e) {
    set_error("load " + r.path + " failed, old scene kept: " + e.what());
    return;
  }
  // the saved kernel choice and integrator go with the bodies (the scene carries dt, ε and G)
  const SimParams before = live_.params;
  live_.params.choice() = st.choice;
  live_.params.integrator = st.physics.integrator;
  live_.params.post_newtonian = st.physics.post_newtonian;
  live_.params.pn_model = st.physics.pn_model;
  const long long serial = live_.scene_serial;
  const double time = st.time;
  const long long steps = st.steps;
  start_scene(std::move(st.scene), {}, "load " + r.path);
  if (live_.scene_serial == serial) {  // refused: the old scene and choice stay
    live_.params = before;
    return;
  }
  if (auto it = st.view.find("backwards"); it != st.view.end() && it->second > 0)
    live_.params.dt = -std::abs(live_.params.dt);
  // the saved time and steps
  Snapshot s = sim_->snapshot();
  s.time = time;
  s.steps = steps;
  sim_->restore(s);
  reset_pacing();
  live_.view = st.view;
  ++live_.view_serial;
  std::ostringstream os;
  os << "loaded " << r.path << ": " << sim_->size() << " bodies at t = " << time << " "
     << scene_->units.time << ", kernel " << live_.params.kernel;
  if (!st.notice.empty()) os << " (" << st.notice << ")";
  set_message(os.str());
}

void SimRunner::play_lesson() {
  if (!lesson_) return;
  // every event due now, one at a time: an edit is applied before the next event is asked for
  // (a later event may name a body an earlier one added)
  for (int guard = 0; guard < 1000; ++guard) {
    std::optional<LessonAction> a;
    try {
      a = lesson_->next_due(sim_->time(), sim_->current(), live_.params.G);
    } catch (const std::exception& e) {
      set_error(std::string("lesson stopped: ") + e.what());
      lesson_.reset();
      return;
    }
    if (!a) return;
    if (a->kind == LessonAction::Kind::Edit) {
      SimRequest q;
      q.kind = SimRequest::Kind::Edit;
      q.edit = a->edit;
      if (q.edit.label.empty()) q.edit.label = "lesson: " + a->text;
      apply_edit_request(q);
      set_message(a->text);
    } else {
      lesson_local_.push_back(*a);
      if (a->kind == LessonAction::Kind::Error) set_error(a->text);
    }
  }
}

long long SimRunner::cap_for_lesson(long long k) const {
  // a batch ends at the next event of a lesson (its first step boundary at or after it)
  if (!lesson_ || k <= 1) return k;
  const std::optional<double> next = lesson_->next_time();
  const double dt = live_.params.dt;
  if (!next || dt == 0) return k;
  const double steps = std::ceil((*next - sim_->time()) / dt - 1e-9);
  if (!(steps >= 1)) return 1;
  return std::min<long long>(k, static_cast<long long>(std::min(steps, 1e9)));
}

}  // namespace nbody::app
