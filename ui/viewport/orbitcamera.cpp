// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/orbitcamera.h>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace plume {

namespace {

float toRadians(float degrees) { return degrees * std::numbers::pi_v<float> / 180.f; }

} // namespace

OrbitCamera::OrbitCamera(const Rig &rig, float yaw, float pitch, float distance)
    : mRig(rig)
    // A drag to the right moves the eye to the left round the target: the yaw falls where
    // sinAxis x cosAxis points down (the volume view's axes) and grows where it points up (the
    // surface view's).
    , mYawPerPixel(QVector3D::dotProduct(QVector3D::crossProduct(rig.sinAxis, rig.cosAxis), rig.up)
                           < 0.f
                       ? -0.4f
                       : 0.4f)
{
    set(yaw, pitch, distance);
}

float OrbitCamera::clampDistance(float distance) const
{
    return std::clamp(distance, mRig.minDistance, mRig.maxDistance);
}

void OrbitCamera::set(float yaw, float pitch, float distance)
{
    mYaw = yaw;
    mPitch = std::clamp(pitch, mRig.minPitch, mRig.maxPitch);
    mDistance = clampDistance(distance);
}

QVector3D OrbitCamera::eye() const
{
    const float y = toRadians(mYaw);
    const float p = toRadians(mPitch);
    const QVector3D direction = std::cos(p)
                                    * (std::sin(y) * mRig.sinAxis + std::cos(y) * mRig.cosAxis)
                                + std::sin(p) * mRig.up;
    return mTarget + mDistance * mUnit * direction;
}

QMatrix4x4 OrbitCamera::viewProjection(float aspect, float nearPlane, float farPlane) const
{
    QMatrix4x4 proj, view;
    proj.perspective(kFieldOfView, aspect, nearPlane, farPlane);
    view.lookAt(eye(), mTarget, mRig.up);
    return proj * view;
}

void OrbitCamera::orbit(QPointF pixels)
{
    mYaw += mYawPerPixel * float(pixels.x());
    mPitch = std::clamp(mPitch + 0.4f * float(pixels.y()), mRig.minPitch, mRig.maxPitch);
}

void OrbitCamera::zoom(int angleDelta)
{
    const double notches = angleDelta / 120.0;
    mDistance = clampDistance(float(mDistance * std::pow(mRig.zoomPerNotch, notches)));
}

void OrbitCamera::pan(QPointF pixels, int viewHeight)
{
    const float perPixel = 2.f * mDistance * mUnit * std::tan(0.5f * toRadians(kFieldOfView))
                           / float(std::max(1, viewHeight));
    const QVector3D forward = (mTarget - eye()).normalized();
    const QVector3D right = QVector3D::crossProduct(forward, mRig.up).normalized();
    const QVector3D up = QVector3D::crossProduct(right, forward);
    mTarget += (-float(pixels.x()) * right + float(pixels.y()) * up) * perPixel;
}

void OrbitCamera::frame(QVector3D centre, float radius)
{
    mTarget = centre;
    mDistance = clampDistance(1.1f * radius / std::sin(0.5f * toRadians(kFieldOfView)) / mUnit);
}

} // namespace plume
