// drawn positions at true or log-compressed distances from a centre: the same function as
// render/distance_scale.cpp (f(r) = R ln(1 + r/r0) / ln(1 + R/r0)); included by the vertex
// shaders that draw positions (particles, trails, orbit outlines)
uniform int u_dist_log;       // 0: true distances (p unchanged), 1: log
uniform vec3 u_dist_centre;   // distances are measured from here
uniform float u_dist_ref;     // R: kept in place
uniform float u_dist_inner;   // r0: the compression starts about here

vec3 display_position(vec3 p) {
  if (u_dist_log == 0) return p;
  vec3 d = p - u_dist_centre;
  float r = length(d);
  if (!(r > 0.0)) return p;
  // log(1 + x) without the cancellation of float for small x
  float x = r / u_dist_inner;
  float l = x < 1e-3 ? x * (1.0 - 0.5 * x) : log(1.0 + x);
  float f = u_dist_ref * l / log(1.0 + u_dist_ref / u_dist_inner);
  return u_dist_centre + d * (f / r);
}
