#version 330 core
// SPDX-License-Identifier: Apache-2.0
// A triangle covering the viewport, from gl_VertexID alone (no vertex buffer).
out vec2 vNdc;
void main()
{
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2) * 2.0 - 1.0;
    vNdc = p;
    gl_Position = vec4(p, 0.0, 1.0);
}
