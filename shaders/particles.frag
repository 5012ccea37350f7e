#version 450 core
// soft round sprite with a bright core and a faint halo, added to the frame (additive blending)

in vec3 v_color;
uniform float u_brightness;
out vec4 out_color;

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  float core = exp(-r2 * 6.0);
  float halo = 0.25 * (1.0 - r2) * (1.0 - r2);
  out_color = vec4(v_color * (core + halo) * u_brightness, 1.0);
}
