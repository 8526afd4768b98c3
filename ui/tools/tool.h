// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <QPointF>
#include <QString>

class QPainter;

namespace plume {

class ToolHost;

/// A pointer event in the viewport, with its world position (on the viewport's slice plane)
/// and pen pressure.
struct ToolEvent
{
    QPointF pos;          ///< widget pixels
    sim::Vec3 world;      ///< world units, on the slice plane (2D: z = the domain's middle)
    float pressure = 1.f; ///< tablet pressure in [0, 1]; 1 for a mouse
    bool tablet = false;
    Qt::KeyboardModifiers modifiers;
};

/// A viewport tool: gets the left-button drags (and hovering) in the viewport, draws its
/// feedback over it, and turns what the user did into undo commands on release. It sees the
/// viewport only as a ToolHost (toolhost.h). One tool may serve several viewports (slice
/// views): each hands itself over before forwarding an event.
class Tool
{
public:
    explicit Tool(ToolHost *host)
        : mHost(host)
    {}
    virtual ~Tool() = default;

    virtual QString name() const = 0;
    /// What the tool does and how (the tool action's status tip and tooltip).
    virtual QString hint() const { return name(); }
    /// The view the tool works in now.
    ToolHost *host() const { return mHost; }
    void setHost(ToolHost *host) { mHost = host; }
    virtual void press(const ToolEvent &) {}
    virtual void drag(const ToolEvent &) {}
    virtual void release(const ToolEvent &) {}
    virtual void hover(const ToolEvent &) {}
    /// Abandons a drag in progress (Escape, tool switch).
    virtual void cancel() {}
    /// Feedback over the scene, in widget coordinates.
    virtual void paint(QPainter &) const {}

protected:
    ToolHost *mHost;
};

} // namespace plume
