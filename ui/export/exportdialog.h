// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/baker.h>
#include <core/settings/exportsettings.h>

#include <QDialog>

#include <array>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QThread;

namespace plume {

class AtlasPreview;
class Document;
class ExportGroup;
class ExportPreview;
class FlipbookGroup;
class FramePreview;
class ImagesGroup;
class OceanMapsGroup;
class OutputGroup;
class RenderGroup;
class VdbGroup;
class VectorFieldGroup;
class VolumeTextureGroup;
class WedgeGroup;

/// File > Export...: bakes the document's scene into any combination of a flipbook atlas, an
/// image sequence, an OpenVDB sequence and (2D) a flow map with the core bake loop (bake/baker.h)
/// on a worker thread, with progress and Cancel. Opens with the scene's export presets; Export
/// stores the settings back into them as one undoable edit (values::SceneExports). Shows, live, the
/// atlas layout to scale and one frame rendered exactly as the bake will render it: its colour,
/// emission, motion vectors or any of the pass textures the options make (six-way lightmaps,
/// normal and depth maps, alpha, packed textures; each packed texture's RGB and its A).
///
/// Its checks and its bake are the bake plan's (bake/bakeplan.h), as plume-cli's are: the same
/// settings are refused with the same message.
///
/// The OpenVDB section's up axis and half floats are the scene's `export.openvdb` preset.
/// Not stored in the scene: the output folder (a user preference). The OpenVDB choice is
/// stored as `export.vdb` only when it differs from what plume-cli would do with the presets
/// (bake/bakeplan.h's vdbByDefault()).
///
/// Each output's options are a group of their own (FlipbookGroup, ImagesGroup, VdbGroup,
/// OceanMapsGroup, and RenderGroup for the look) that fills its part of the bake settings; the
/// dialog composes them with the folder, base name and outputs' boxes (OutputGroup), the frame
/// range, the preview (ExportPreview) and the export's progress.
///
/// With the Variations section (WedgeGroup) on, Export bakes a wedge instead (docs/wedges.md):
/// it writes the variations' scenes and the manifest into the folder and bakes each variation
/// with the dialog's settings into `<folder>/<base>_w<k>/`, files named `<base>_w<k>`, one after
/// another; a failed variation is reported with its values and the others still bake. A wedge
/// leaves the document as it is: its presets are not stored and nothing is pushed.
class ExportDialog : public QDialog
{
    Q_OBJECT

public:
    /// `previewFrame`: the frame the preview shows first (clamped to the scene's frames).
    ExportDialog(Document *document, int previewFrame, QWidget *parent = nullptr);
    ~ExportDialog() override;

    /// The presets the widgets describe (the scene's, with the dialog's options applied).
    ExportPresets presets() const;
    /// What Export would bake.
    BakeSettings bakeSettings() const;
    /// Ocean scenes: whether Export bakes the ocean maps (bakeSettings().oceanMaps).
    bool oceanMapsEnabled() const;

    WedgeGroup *wedgeGroup() const { return mWedge; }
    AtlasPreview *atlasPreview() const;
    FramePreview *framePreview() const;

    bool isExporting() const { return mThread != nullptr; }
    /// The outcome of the last export.
    const BakeResult &lastResult() const { return mResult; }

    /// One variation's bake in a wedge export: its outcome, or why it could not start.
    struct VariationResult
    {
        int index = 0;
        std::string name;
        std::string values; ///< "key = value, ..."
        BakeResult result;
    };
    /// The variations the last wedge export baked or tried, in order (empty after a plain one).
    const std::vector<VariationResult> &lastVariations() const { return mVariations; }

public slots:
    /// Stores the presets in the scene and starts the bake; false (with the reason shown) when
    /// the options cannot bake.
    bool startExport();
    /// Asks the running bake to stop after the frame in progress.
    void cancelExport();
    void reject() override;

signals:
    void progressed(int done, int total);
    /// A wedge export started variation `index` (0-based) of `count`.
    void variationStarted(int index, int count);
    void exportFinished(bool ok);

private:
    QWidget *createFramesGroup();
    void load(const ExportPresets &presets);
    void connectChanges();
    std::array<ExportGroup *, 7> groups() const;
    BakeSettings fromGroups() const;
    void optionsChanged();
    QString validate() const;
    void finishExport();
    bool startWedgeExport();
    void finishWedgeExport();
    void setExportingUi(bool exporting);

    class Observer;

    Document *mDocument;
    ExportPresets mScenePresets;
    QString mLoadedBase; ///< the base name the presets gave
    bool mOcean = false; ///< the scene is of the ocean scheme

    OutputGroup *mOutput;
    QSpinBox *mFirst;
    QSpinBox *mLast;
    FlipbookGroup *mFlipbook;
    ImagesGroup *mImages;
    VdbGroup *mVdb;
    VectorFieldGroup *mVectorField;
    VolumeTextureGroup *mVolumeTexture;
    OceanMapsGroup *mOceanGroup; ///< ocean scenes; not stored, like plume-cli's --ocean-maps
    RenderGroup *mRender;
    WedgeGroup *mWedge;
    ExportPreview *mPreview;
    QLabel *mMessage;
    QProgressBar *mProgress;
    QPlainTextEdit *mReport;
    QPushButton *mExportButton;
    QPushButton *mCancelButton;
    QPushButton *mCloseButton;

    QThread *mThread = nullptr;
    std::unique_ptr<Observer> mObserver;
    BakeResult mResult;
    std::vector<VariationResult> mVariations;
    QString mWedgeDirectory; ///< where the running wedge export writes
    QString mWedgeManifest;  ///< its manifest's file name
    int mWedgeCount = 0;     ///< its number of variations
};

} // namespace plume
