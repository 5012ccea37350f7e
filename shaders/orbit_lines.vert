#version 450 core
// orbit outlines: position and colour per vertex

layout(location = 0) in vec3 in_pos;
layout(location = 1) in vec3 in_color;

uniform mat4 u_view_proj;
#include "shaders/distance_map.glsl"

out vec3 v_color;

void main() {
  v_color = in_color;
  gl_Position = u_view_proj * vec4(display_position(in_pos), 1.0);
}
