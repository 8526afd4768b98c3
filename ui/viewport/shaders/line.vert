#version 330 core
// SPDX-License-Identifier: Apache-2.0
// The domain box and the items' gizmos (VolumeView::drawLines), in one colour each.
layout(location = 0) in vec3 aPos;
uniform mat4 uViewProj;
void main() { gl_Position = uViewProj * vec4(aPos, 1.0); }
