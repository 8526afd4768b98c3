#version 330 core
// SPDX-License-Identifier: Apache-2.0
// z is up. Sun: diffuse on deep-water colour plus a glint; the sky reflects by Schlick's
// Fresnel term; foam mixes towards white.
in vec3 worldPos;
in vec3 worldNormal;
in float foamAmount;
uniform vec3 eye;
uniform vec3 sun;
out vec4 colour;
void main()
{
    vec3 n = normalize(worldNormal);
    vec3 v = normalize(eye - worldPos);
    if (dot(n, v) < 0.0)
        n = -n;
    const vec3 deep = vec3(0.01, 0.09, 0.14);
    const vec3 sky = vec3(0.55, 0.70, 0.86);
    float diffuse = max(dot(n, sun), 0.0);
    float fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n, v), 0.0), 5.0);
    vec3 r = reflect(-v, n);
    float glint = pow(max(dot(r, sun), 0.0), 180.0);
    vec3 c = mix(deep * (0.35 + 0.65 * diffuse), sky, fresnel) + vec3(1.0, 0.95, 0.85) * glint;
    vec3 white = vec3(0.92, 0.95, 0.97) * (0.55 + 0.45 * diffuse);
    c = mix(c, white, clamp(foamAmount, 0.0, 1.0));
    colour = vec4(pow(c, vec3(1.0 / 2.2)), 1.0);
}
