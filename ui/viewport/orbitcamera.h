// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QMatrix4x4>
#include <QPointF>
#include <QVector3D>

namespace plume {

/// A camera orbiting a target point, shared by the volume and surface views: `yaw` degrees
/// about the up axis, `pitch` degrees above the horizon, `distance` from the target in units
/// of a world length (setUnit: 1 for the volume view, the ocean tiles' diagonal for the surface
/// view), a vertical field of view of kFieldOfView degrees. Drags turn it 0.4 degrees per
/// pixel, the wheel moves it nearer or further, a pan drag moves the target. A Rig says which
/// way the angles point and how far they may go; the views differ only in their rigs.
class OrbitCamera
{
public:
    static constexpr float kFieldOfView = 40.f; ///< vertical, degrees

    /// The axes and limits of one view's orbit.
    struct Rig
    {
        /// The eye's direction from the target is
        /// cos(pitch) (sin(yaw) sinAxis + cos(yaw) cosAxis) + sin(pitch) up.
        QVector3D sinAxis, cosAxis, up;
        float minPitch, maxPitch;       ///< degrees
        float minDistance, maxDistance; ///< in units (setUnit)
        double zoomPerNotch; ///< distance factor per wheel notch (120 eighths of a degree)
    };

    OrbitCamera(const Rig &rig, float yaw, float pitch, float distance);

    /// Pitch and distance are clamped to the rig's limits; the yaw is kept as given.
    void set(float yaw, float pitch, float distance);
    float yaw() const { return mYaw; }
    float pitch() const { return mPitch; }
    float distance() const { return mDistance; }
    void setTarget(QVector3D target) { mTarget = target; }
    QVector3D target() const { return mTarget; }
    /// The world length of one unit of distance.
    void setUnit(float worldLength) { mUnit = worldLength; }

    QVector3D eye() const;
    /// Projection (kFieldOfView, `aspect` width / height, the given clip planes) times view.
    QMatrix4x4 viewProjection(float aspect, float nearPlane, float farPlane) const;

    /// A drag by `pixels` turns the camera so that the scene follows the pointer: right turns
    /// it about the up axis, down raises the eye.
    void orbit(QPointF pixels);
    /// A wheel turn of `angleDelta` eighths of a degree (QWheelEvent::angleDelta().y();
    /// positive: away from the user) moves the eye nearer.
    void zoom(int angleDelta);
    /// Moves the target in the view plane so that the point under the pointer at the target's
    /// depth follows a drag of `pixels` in a view `viewHeight` pixels high.
    void pan(QPointF pixels, int viewHeight);
    /// Looks at `centre` from a distance at which a sphere of `radius` fits the view's height
    /// with a tenth to spare.
    void frame(QVector3D centre, float radius);

private:
    float clampDistance(float distance) const;

    Rig mRig;
    float mYawPerPixel; ///< signed by the rig's handedness, so that the scene follows the pointer
    float mYaw = 0.f;
    float mPitch = 0.f;
    float mDistance = 1.f;
    float mUnit = 1.f;
    QVector3D mTarget{0.f, 0.f, 0.f};
};

} // namespace plume
