#version 330 core
// SPDX-License-Identifier: Apache-2.0
// Two-sided Lambert: a model's winding (and an open one's inside) is not known. One-sided for
// meshes wound outwards.
in vec3 vNormal;
out vec4 fragColor;
uniform vec4 uColor;
uniform vec3 uLightDir;
uniform vec3 uLight;
uniform float uAmbient;
uniform int uOneSided;
void main()
{
    float len = length(vNormal);
    float facing = len > 0.0 ? dot(vNormal / len, uLightDir) : 0.0;
    float lambert = uOneSided != 0 ? max(facing, 0.0) : abs(facing);
    vec3 c = uColor.rgb * (uLight * lambert + vec3(uAmbient));
    fragColor = vec4(pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2)), uColor.a);
}
