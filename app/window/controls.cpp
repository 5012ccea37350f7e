// The requests that carry a scene, a file or a comparison (app/window/controls.hpp).
#include "app/window/controls.hpp"

namespace nbody::app {

SimRequest scene_request(const std::string& name, const SceneParams& params) {
  SimRequest q;
  q.kind = SimRequest::Kind::Scene;
  q.what = "scene " + name;
  q.scene_defaults = true;  // a real-sky scene starts with its best model
  q.make = [name, params] { return make_scene(name, params); };
  return q;
}

SimRequest load_request(const std::string& path, const io::LoadOptions& options) {
  SimRequest q;
  q.kind = SimRequest::Kind::Scene;
  q.what = "load " + path;
  q.make = [path, options] { return io::load(path, options); };
  return q;
}

SimRequest compare_request(const std::vector<CompareEntry>& entries) {
  SimRequest q;
  q.kind = SimRequest::Kind::Compare;
  q.entries = entries;
  return q;
}

}  // namespace nbody::app
