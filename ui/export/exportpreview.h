// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakesettings.h>

#include <QWidget>

class QComboBox;
class QSpinBox;
class QTimer;

namespace plume {

class AtlasPreview;
class Document;
class FramePreview;

/// The export dialog's preview: the flipbook atlas's layout to scale (AtlasPreview), and one
/// frame rendered exactly as the bake will render it (FramePreview) with the frame to show and
/// what of it: colour, emission, motion vectors or any texture the passes make (each packed
/// texture's RGB and its A), of the flipbook, or of the image sequence when only it is on.
class ExportPreview : public QWidget
{
    Q_OBJECT

public:
    explicit ExportPreview(const Document *document, QWidget *parent = nullptr);

    AtlasPreview *atlasPreview() const { return mAtlas; }
    FramePreview *framePreview() const { return mFrame; }

    /// The frames it may show; the frame shown is clamped into them.
    void setFrameRange(int first, int last);
    void setFrame(int frame);
    /// What the bake would do: lays out the atlas, lists the textures and renders the frame
    /// once the settings stop changing.
    void setSettings(const BakeSettings &settings);

private:
    void updateAtlas();
    void updateChannels();
    void requestFrame();

    const Document *mDocument;
    BakeSettings mSettings;
    AtlasPreview *mAtlas;
    FramePreview *mFrame;
    QSpinBox *mFrameBox;
    QComboBox *mChannel;
    QTimer *mFrameTimer;
};

} // namespace plume
