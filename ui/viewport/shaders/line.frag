#version 330 core
// SPDX-License-Identifier: Apache-2.0
uniform vec4 uColor;
out vec4 fragColor;
void main() { fragColor = uColor; }
