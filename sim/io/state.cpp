// Whole saved states: the bodies and the run record (time, steps, kernel choice, view) in the
// native CSV or binary format.
#include <string>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"
#include "sim/io/format_table.hpp"

namespace nbody::io {

namespace {

// the format `path`'s extension names, when it can hold a saved state
Format state_format(const std::string& path) {
  const std::optional<Format> f = format_from_extension(path);
  if (f && format_row(*f).caps.saved_state) return *f;
  std::string exts;
  for (const FormatRow* r : format_table())
    if (r->caps.saved_state && !r->extensions.empty())
      exts += (exts.empty() ? "" : " or ") + r->extensions.front();
  fail(
      path, ": a saved state is written in the native format, so the name must end in ", exts, " (",
      f ? std::string(format_name(*f)) + " cannot hold the run record" : "no known extension", ")");
}

}  // namespace

void save_state(const std::string& path, const Scene& current, const RunRecord& run) {
  SaveOptions so;
  so.run = run;
  save(current, path, state_format(path), so);
}

SavedState load_state(const std::string& path, const LoadOptions& opt) {
  SavedState st;
  LoadOptions lo = opt;
  lo.run = &st.run;
  st.scene = load(path, lo);
  if (opt.run) *opt.run = st.run;
  return st;
}

}  // namespace nbody::io
