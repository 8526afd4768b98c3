#version 330 core
// SPDX-License-Identifier: Apache-2.0
// The ocean surface (SurfaceView): one patch, moved by `offset` to tile 2 x 2.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in float foam;
uniform mat4 viewProj;
uniform vec2 offset;
out vec3 worldPos;
out vec3 worldNormal;
out float foamAmount;
void main()
{
    worldPos = position + vec3(offset, 0.0);
    worldNormal = normal;
    foamAmount = foam;
    gl_Position = viewProj * vec4(worldPos, 1.0);
}
