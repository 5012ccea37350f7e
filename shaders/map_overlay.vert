#version 450 core
// the density map as a quad in one coordinate plane; corners from gl_VertexID

uniform mat4 u_view_proj;
uniform vec4 u_bounds;  // u_min, u_max, v_min, v_max
uniform int u_plane;    // 0 XY, 1 XZ, 2 YZ
uniform float u_offset; // position along the plane's normal

out vec2 v_uv;

void main() {
  vec2 uv = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
  float u = mix(u_bounds.x, u_bounds.y, uv.x);
  float v = mix(u_bounds.z, u_bounds.w, uv.y);
  vec3 p = u_plane == 0 ? vec3(u, v, u_offset) : (u_plane == 1 ? vec3(u, u_offset, v)
                                                              : vec3(u_offset, u, v));
  v_uv = uv;
  gl_Position = u_view_proj * vec4(p, 1.0);
}
