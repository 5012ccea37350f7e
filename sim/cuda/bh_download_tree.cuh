#pragma once
// The Barnes-Hut GPU kernel's tree as the host sees it (tests, inspection): this GPU's nodes,
// groups, keys and cube of the last build (and moments of the last build or refit). Included
// once, by sim/cuda/barnes_hut.cu, after its BarnesHutBackend class, inside its anonymous
// namespace.

template <typename T>
bool BarnesHutBackend<T>::download_tree(BarnesHutTree& out) const {
  DeviceStore<T>& st = this->store();
  read_meta();
  if (level_start_.size() < 2 || st.size() == 0) return false;
  const cudaStream_t s = st.context().stream;
  const std::size_t nn = level_start_.back(), n = st.size();
  out.begin.resize(nn);
  out.count.resize(nn);
  out.first_child.resize(nn);
  out.child_count.resize(nn);
  out.level.resize(nn);
  out.prefix.resize(nn);
  // this GPU's tree (from node0_; its child indices counted from there too)
  begin_.download_from(out.begin.data(), node0_, nn, s);
  count_.download_from(out.count.data(), node0_, nn, s);
  first_.download_from(out.first_child.data(), node0_, nn, s);
  nchild_.download_from(out.child_count.data(), node0_, nn, s);
  level_.download_from(out.level.data(), node0_, nn, s);
  prefix_.download_from(out.prefix.data(), node0_, nn, s);
  for (std::size_t i = 0; i < nn; ++i)
    if (out.child_count[i]) out.first_child[i] -= static_cast<u32>(node0_);
  out.level_start = level_start_;
  std::vector<V4> a(nn), m(nn);
  A_.download_from(a.data(), node0_, nn, s);
  M_.download_from(m.data(), node0_, nn, s);
  out.mass.resize(nn);
  out.comx.resize(nn);
  out.comy.resize(nn);
  out.comz.resize(nn);
  out.rcrit2.resize(nn);
  for (std::size_t i = 0; i < nn; ++i) {
    out.mass[i] = m[i].x;
    out.comx[i] = a[i].x;
    out.comy[i] = a[i].y;
    out.comz[i] = a[i].z;
    out.rcrit2[i] = a[i].w;
  }
  out.keys.resize(n);
  keys_.download(out.keys.data(), n, s);
  // below the sorted digits the sort may have carried each body's index (sort_bodies())
  const u64 digits = ~((u64(1) << tree::digit_shift(built_levels_)) - 1);
  for (u64& k : out.keys)
    k &= digits;
  out.order.resize(n);
  if (st.ordered())
    st.order().download(out.order.data(), n, s);
  else
    for (std::size_t i = 0; i < n; ++i)
      out.order[i] = static_cast<u32>(i);
  std::vector<uint2> g(ngroups_);
  groups_.download(g.data(), ngroups_, s);
  out.group_begin.resize(ngroups_);
  out.group_count.resize(ngroups_);
  for (u32 i = 0; i < ngroups_; ++i) {
    out.group_begin[i] = g[i].x;
    out.group_count[i] = g[i].y;
  }
  std::vector<ull> gw(ngroups_);
  group_work_.download(gw.data(), ngroups_, s);
  out.group_work.assign(gw.begin(), gw.end());
  tree::Cube c;
  cube_.download(&c, 1, s);
  out.sorted_levels = built_levels_;
  out.x0 = c.x0;
  out.y0 = c.y0;
  out.z0 = c.z0;
  out.side = c.side;
  return true;
}
