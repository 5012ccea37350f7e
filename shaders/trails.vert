#version 450 core
// trails: each body has a ring of 2L samples (every sample written twice, at i and i + L), so
// the L newest samples are always one contiguous range

layout(location = 0) in vec3 in_pos;

uniform mat4 u_view_proj;
uniform int u_length;  // L
uniform int u_head;    // slot of the newest sample, 0..L-1
uniform int u_filled;  // samples recorded so far (<= L)
uniform int u_ncolors;       // bodies with their own colour (the first u_ncolors)
uniform vec3 u_colors[64];
#include "shaders/distance_map.glsl"

out float v_fade;
out vec3 v_color;

vec3 palette(int i) {
  const vec3 k[8] = vec3[8](vec3(1.0, 0.85, 0.4), vec3(0.6, 0.8, 1.0), vec3(1.0, 0.55, 0.45),
                            vec3(0.55, 1.0, 0.6), vec3(0.9, 0.6, 1.0), vec3(0.5, 1.0, 1.0),
                            vec3(1.0, 0.7, 0.9), vec3(0.85, 0.85, 0.85));
  return k[i % 8];
}

void main() {
  int local = gl_VertexID % (2 * u_length);
  int body = gl_VertexID / (2 * u_length);
  int age = u_head + u_length - local;  // 0 newest .. L-1 oldest
  float a = 1.0 - float(age) / float(max(u_filled, 1));
  v_fade = age < u_filled ? a * a : 0.0;
  v_color = body < u_ncolors ? u_colors[body] * 0.8 : palette(body);
  gl_Position = u_view_proj * vec4(display_position(in_pos), 1.0);
}
