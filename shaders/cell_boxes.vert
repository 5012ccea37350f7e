#version 450 core
// tree cells as wireframe boxes: xyz and the cell's depth per vertex, coloured by depth

layout(location = 0) in vec4 in_pos_level;

uniform mat4 u_view_proj;
uniform float u_max_level;

out vec3 v_color;

void main() {
  // shallow cells warm and bright, deep cells cool and faint
  float t = clamp(in_pos_level.w / max(u_max_level, 1.0), 0.0, 1.0);
  v_color = mix(vec3(1.0, 0.75, 0.3), vec3(0.3, 0.6, 1.0), t) * mix(1.0, 0.45, t);
  gl_Position = u_view_proj * vec4(in_pos_level.xyz, 1.0);
}
