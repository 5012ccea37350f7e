#include "sim/edit/timeline.hpp"

#include <algorithm>
#include <cmath>

namespace nbody {

std::size_t Snapshot::bytes() const {
  if (!scene) return 0;
  const Bodies& b = scene->bodies;
  std::size_t n = sizeof(Scene) + 7 * sizeof(double) * b.size() + b.component.size();
  for (const std::string& s : b.name)
    n += sizeof(std::string) + (s.size() > 15 ? s.size() : 0);
  for (const std::string& s : scene->body_class)
    n += sizeof(std::string) + (s.size() > 15 ? s.size() : 0);
  n += b.halos.size() * sizeof(RigidHalo) + scene->groups.size() * sizeof(BodyGroup);
  return n;
}

void Timeline::set_budget(std::size_t bytes) {
  budget_ = bytes;
  thin();
}

void Timeline::record(Snapshot s) {
  if (!s.scene) return;
  recorded_ = true;
  last_recorded_ = s.time;
  const std::size_t add = s.bytes();
  auto it = std::lower_bound(snaps_.begin(), snaps_.end(), s.time,
                             [](const Snapshot& a, double t) { return a.time < t; });
  if (it != snaps_.end() && it->time == s.time) {
    bytes_ -= it->bytes();
    *it = std::move(s);
  } else {
    snaps_.insert(it, std::move(s));
  }
  bytes_ += add;
  thin();
}

void Timeline::thin() {
  // drop every other snapshot of the older half (the first kept) until within budget
  while (bytes_ > budget_ && snaps_.size() > 2) {
    const std::size_t half = std::max<std::size_t>(snaps_.size() / 2, 2);
    std::vector<Snapshot> kept;
    kept.reserve(snaps_.size());
    for (std::size_t k = 0; k < snaps_.size(); ++k) {
      const bool newest = k + 1 == snaps_.size();
      if (k < half && k % 2 == 1 && !newest)
        bytes_ -= snaps_[k].bytes();
      else
        kept.push_back(std::move(snaps_[k]));
    }
    snaps_ = std::move(kept);
  }
}

const Snapshot* Timeline::at_or_before(double t) const {
  auto it = std::upper_bound(snaps_.begin(), snaps_.end(), t,
                             [](double v, const Snapshot& a) { return v < a.time; });
  if (it == snaps_.begin()) return nullptr;
  return &*(it - 1);
}

void Timeline::truncate_after(double t) {
  while (!snaps_.empty() && snaps_.back().time > t) {
    bytes_ -= snaps_.back().bytes();
    snaps_.pop_back();
  }
  if (recorded_ && last_recorded_ > t) last_recorded_ = snaps_.empty() ? t : snaps_.back().time;
}

std::vector<double> Timeline::times() const {
  std::vector<double> t;
  t.reserve(snaps_.size());
  for (const Snapshot& s : snaps_)
    t.push_back(s.time);
  return t;
}

void Timeline::clear() {
  snaps_.clear();
  bytes_ = 0;
  recorded_ = false;
  last_recorded_ = 0;
}

bool Timeline::due(double time, double interval) const {
  return !recorded_ || std::abs(time - last_recorded_) >= interval;
}

void UndoStack::set_budget(std::size_t bytes) {
  budget_ = bytes;
  trim();
}

void UndoStack::push(std::string label, Snapshot before, Snapshot after) {
  entries_.resize(cursor_);
  entries_.push_back({std::move(label), std::move(before), std::move(after)});
  cursor_ = entries_.size();
  trim();
}

void UndoStack::trim() {
  // drop the oldest entries while over budget (the newest stays)
  std::size_t drop = 0;
  while (drop + 1 < entries_.size() && bytes_from(drop) > budget_)
    ++drop;
  if (drop == 0) return;
  entries_.erase(entries_.begin(), entries_.begin() + static_cast<long>(drop));
  cursor_ = cursor_ > drop ? cursor_ - drop : 0;
}

std::size_t UndoStack::bytes_from(std::size_t first) const {
  // a scene shared by two snapshots (an edit's after, the next one's before) counts once
  std::vector<const Scene*> seen;
  std::size_t n = 0;
  for (std::size_t k = first; k < entries_.size(); ++k)
    for (const Snapshot* s : {&entries_[k].before, &entries_[k].after}) {
      if (std::find(seen.begin(), seen.end(), s->scene.get()) != seen.end()) continue;
      seen.push_back(s->scene.get());
      n += s->bytes();
    }
  return n;
}

const Snapshot* UndoStack::undo() {
  if (!can_undo()) return nullptr;
  return &entries_[--cursor_].before;
}

const Snapshot* UndoStack::redo() {
  if (!can_redo()) return nullptr;
  return &entries_[cursor_++].after;
}

std::vector<std::string> UndoStack::labels() const {
  std::vector<std::string> l;
  for (const Entry& e : entries_)
    l.push_back(e.label);
  return l;
}

std::string UndoStack::undo_label() const {
  return can_undo() ? entries_[cursor_ - 1].label : std::string();
}

std::string UndoStack::redo_label() const {
  return can_redo() ? entries_[cursor_].label : std::string();
}

std::size_t UndoStack::bytes() const {
  return bytes_from(0);
}

void UndoStack::clear() {
  entries_.clear();
  cursor_ = 0;
}

}  // namespace nbody
