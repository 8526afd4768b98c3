#version 330 core
// SPDX-License-Identifier: Apache-2.0
// Mesh items and the level surface (MeshSurfaces) in the volume view.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;
uniform mat4 uViewProj;
uniform mat4 uModel;
uniform mat3 uNormalMatrix;
out vec3 vNormal;
void main()
{
    vNormal = uNormalMatrix * aNormal;
    gl_Position = uViewProj * (uModel * vec4(aPos, 1.0));
}
