#version 450 core
// bodies as point sprites: position + mass, speed and component per vertex

layout(location = 0) in vec4 in_pos_mass;
layout(location = 1) in float in_speed;
layout(location = 2) in float in_component;

uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_point_size;   // pixels at the reference distance
uniform float u_ref_distance; // camera distance at which a sprite has u_point_size
uniform float u_pixel_scale;  // viewport height / 800
uniform int u_color_mode;     // 0 speed, 1 component, 2 mass
uniform float u_speed_max;
uniform vec2 u_log_mass_range;  // log10 of the smallest and largest mass
uniform float u_mass_size;      // > 0: bigger sprites for heavier bodies

out vec3 v_color;

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
  vec4 view_pos = u_view * vec4(in_pos_mass.xyz, 1.0);
  gl_Position = u_proj * view_pos;

  // mass as a position in the log range
  float lm = log(max(in_pos_mass.w, 1e-30)) / log(10.0);
  float span = max(u_log_mass_range.y - u_log_mass_range.x, 1e-6);
  float mt = clamp((lm - u_log_mass_range.x) / span, 0.0, 1.0);

  if (u_color_mode == 0) {
    v_color = ramp_speed(in_speed / max(u_speed_max, 1e-30));
  } else if (u_color_mode == 1) {
    v_color = component_color(int(in_component + 0.5));
  } else {
    v_color = ramp_speed(mt);
  }

  // perspective size, clamped so near bodies do not fill the screen
  float depth = max(-view_pos.z, 1e-6);
  float persp = clamp(u_ref_distance / depth, 0.35, 4.0);
  float size = u_point_size * u_pixel_scale * persp * (1.0 + u_mass_size * 3.0 * mt);
  gl_PointSize = clamp(size, 1.0, 96.0);
}
