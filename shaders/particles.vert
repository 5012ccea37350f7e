#version 450 core
// bodies as point sprites: position + mass, speed, component and an optional per-body look

layout(location = 0) in vec4 in_pos_mass;
layout(location = 1) in float in_speed;
layout(location = 2) in float in_component;
layout(location = 3) in vec4 in_look;  // rgb and diameter in pixels (0: the style's size)

uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_point_size;   // pixels at the reference distance
uniform float u_ref_distance; // camera distance at which a sprite has u_point_size
uniform float u_pixel_scale;  // viewport height / 800
uniform int u_color_mode;     // 0 speed, 1 component, 2 mass, 3 body
uniform float u_speed_max;
uniform vec2 u_log_mass_range;  // log10 of the smallest and largest mass
uniform float u_mass_size;      // > 0: bigger sprites for heavier bodies
uniform float u_component_gain[6];  // 1 shown, < 1 dimmed, 0 hidden
#include "shaders/distance_map.glsl"

out vec3 v_color;
flat out int v_solid;  // 1: a body drawn as a disc (planets), 0: a soft glow

// same stops as render/colormap.cpp
vec3 ramp_speed(float t) {
  const vec3 s[5] = vec3[5](vec3(0.20, 0.35, 1.00), vec3(0.30, 0.80, 1.00),
                            vec3(1.00, 0.96, 0.90), vec3(1.00, 0.62, 0.20),
                            vec3(1.00, 0.22, 0.12));
  float x = clamp(t, 0.0, 1.0) * 4.0;
  int i = min(int(x), 3);
  return mix(s[i], s[i + 1], x - float(i));
}

vec3 component_color(int c) {
  const vec3 k[6] = vec3[6](vec3(1.00, 0.90, 0.70), vec3(0.45, 0.70, 1.00),
                            vec3(1.00, 0.75, 0.35), vec3(0.55, 0.45, 0.75),
                            vec3(0.40, 1.00, 0.60), vec3(0.70, 0.85, 1.00));
  return k[clamp(c, 0, 5)];
}

void main() {
  vec4 view_pos = u_view * vec4(display_position(in_pos_mass.xyz), 1.0);
  gl_Position = u_proj * view_pos;
  int comp = clamp(int(in_component + 0.5), 0, 5);
  float gain = u_component_gain[comp];
  v_solid = 0;

  // mass as a position in the log range
  float lm = log(max(in_pos_mass.w, 1e-30)) / log(10.0);
  float span = max(u_log_mass_range.y - u_log_mass_range.x, 1e-6);
  float mt = clamp((lm - u_log_mass_range.x) / span, 0.0, 1.0);

  if (u_color_mode == 0) {
    v_color = ramp_speed(in_speed / max(u_speed_max, 1e-30));
  } else if (u_color_mode == 1) {
    v_color = component_color(comp);
  } else if (u_color_mode == 2) {
    v_color = ramp_speed(mt);
  } else {
    v_color = in_look.a > 0.0 ? in_look.rgb : component_color(comp);
  }
  v_color *= gain;

  // hidden components: no fragments at all
  if (gain <= 0.0) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = 1.0;
    return;
  }
  // bodies with a look keep a readable size whatever the distance
  if (u_color_mode == 3 && in_look.a > 0.0) {
    v_solid = 1;
    gl_PointSize = clamp(in_look.a * u_pixel_scale * u_point_size / 7.0, 2.0, 96.0);
    return;
  }
  // perspective size, clamped so near bodies do not fill the screen
  float depth = max(-view_pos.z, 1e-6);
  float persp = clamp(u_ref_distance / depth, 0.35, 4.0);
  float size = u_point_size * u_pixel_scale * persp * (1.0 + u_mass_size * 3.0 * mt);
  gl_PointSize = clamp(size, 1.0, 96.0);
}
