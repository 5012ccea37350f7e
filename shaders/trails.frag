#version 450 core
// fading trail colour, added to the frame

in float v_fade;
in vec3 v_color;
uniform float u_alpha;
out vec4 out_color;

void main() {
  out_color = vec4(v_color * v_fade * u_alpha, 1.0);
}
