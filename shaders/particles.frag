#version 450 core
// soft round sprite (Gaussian core and a faint halo) or, for named bodies, a disc with a soft
// edge; added to the HDR frame (additive blending, tone-mapped later)

in vec3 v_color;
flat in int v_solid;
uniform float u_brightness;
out vec4 out_color;

void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r2 = dot(p, p);
  if (r2 > 1.0) discard;
  if (v_solid == 1) {
    float edge = 1.0 - smoothstep(0.6, 1.0, r2);
    out_color = vec4(v_color * edge, 1.0);
    return;
  }
  float core = exp(-r2 * 6.0);
  float halo = 0.25 * (1.0 - r2) * (1.0 - r2);
  out_color = vec4(v_color * (core + halo) * u_brightness, 1.0);
}
