#pragma once
// Edits of a scene's bodies (issue 19): add, remove, move, set and merge bodies, keeping every
// per-body array of the Scene consistent (names, components, small-body classes, groups, rigid
// halos). One value, Edit, describes each gesture of the window and each lesson step, so that
// undo, lessons and the window share one implementation.

#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/bodies.hpp"
#include "sim/core/scene.hpp"

namespace nbody {

/// One body as an edit gives it: state, mass, component and labels (scene units).
struct BodySpec {
  double x = 0, y = 0, z = 0;
  double vx = 0, vy = 0, vz = 0;
  double m = 0;  ///< mass (>= 0; 0: a massless test particle)
  Component component = Component::Star;
  std::string name;        ///< "" for an unnamed body
  std::string body_class;  ///< small-body class (Scene::body_class), "" for none
};

/// One edit of a scene's bodies.
struct Edit {
  enum class Kind {
    Add,        ///< appends `bodies`
    Remove,     ///< removes the bodies `indices`
    Translate,  ///< moves the bodies `indices` by (dx, dy, dz)
    Set,        ///< replaces body indices[k] with bodies[k]
    Merge       ///< merges the bodies `indices` into one (mass and momentum conserved)
  };
  Kind kind = Kind::Add;
  std::vector<std::size_t> indices;  ///< bodies edited (Remove, Translate, Set, Merge)
  std::vector<BodySpec> bodies;      ///< bodies added (Add) or the new values (Set)
  double dx = 0, dy = 0, dz = 0;     ///< displacement (Translate)
  std::string label;                 ///< for the undo list, e.g. "add Jupiter"; "": describe()
};

/// "add", "remove", "move", "set" or "merge".
const char* edit_kind_name(Edit::Kind k);

/// The edit's label, or a description when it has none ("add 1 body", "remove 3 bodies",
/// "move body 4", "set body 2 (Earth)", "merge 2 bodies").
std::string describe(const Edit& e);

/// Applies `e` to `s`. Positions, velocities, masses, components and names of s.bodies change
/// as the edit says and every per-body array follows: Scene::body_class, the ranges of
/// Scene::groups (empty groups are dropped), the rigid halos (a halo whose anchor is removed is
/// removed, the others' anchors re-indexed). Merge: the merged body has the summed mass at the
/// centre of mass moving with the centre-of-mass velocity (momentum conserved to round-off); the
/// heaviest (the first of equals) keeps its index, name, component and class; a merge of
/// massless bodies only averages them. Throws nbody::Error naming the edit and what is wrong
/// (index out of range, duplicate index, negative or non-finite value, a halo anchor given mass
/// or merged, removing every body, no positive mass left) and leaves `s` unchanged then.
void apply_edit(Scene& s, const Edit& e);

/// Body `i` of `s` as a BodySpec (throws nbody::Error when i is out of range).
BodySpec body_spec(const Scene& s, std::size_t i);

/// The index body `i` has after removing the sorted, distinct indices `removed` (i itself not
/// among them): i minus the removed indices below it. For callers that keep a selection.
std::size_t index_after_removal(const std::vector<std::size_t>& removed, std::size_t i);

/// The body a Merge of the distinct `indices` (at least one) gives, by Edit::Kind::Merge's rule
/// (summed mass at the centre of mass with its velocity; averages of massless bodies; the
/// heaviest's name, component and class), and in `survivor` the index of that heaviest (the
/// first of equals). Checks nothing (apply_edit() checks).
BodySpec merged_body(const Scene& s, const std::vector<std::size_t>& indices,
                     std::size_t& survivor);

/// The index the merged body of a Merge edit of `indices` has after the edit (the heaviest of
/// them, the first of equals, shifted down past the others).
std::size_t merged_index(const Bodies& b, const std::vector<std::size_t>& indices);

}  // namespace nbody
