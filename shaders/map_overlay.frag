#version 450 core
// translucent heat map (alpha blending): empty cells (black) are transparent, the dim low end of
// the heat scale is brightened so sparse regions stay visible over the black background

in vec2 v_uv;
uniform sampler2D u_map;
uniform float u_alpha;
out vec4 out_color;

void main() {
  vec3 c = texture(u_map, v_uv).rgb;
  float level = max(c.r, max(c.g, c.b));
  if (level < 0.01) discard;
  out_color = vec4(min(c * 1.8, vec3(1.0)), u_alpha * smoothstep(0.01, 0.2, level));
}
