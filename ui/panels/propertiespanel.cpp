// SPDX-License-Identifier: Apache-2.0
#include <ui/panels/propertiespanel.h>

#include <ui/panels/propertyhelp.h>

#include <core/scene/meshfile.h>
#include <core/scene/shapecoverage.h>
#include <ui/document/animationstate.h>
#include <ui/document/modelimport.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>
#include <tuple>

namespace plume {

namespace {

/// A combo box's entries: an enum's names, in value order (the box's index is the value).
template<class E, std::size_t N>
QStringList names(const sim::EnumNames<E, N> &table)
{
    QStringList list;
    for (const char *name : table.names)
        list << QString::fromLatin1(name);
    return list;
}

const char *const kFaces[6] = {"x min", "x max", "y min", "y max", "z min", "z max"};

/// A table entry under another key: editors that share a key (rotation, scale) get distinct
/// object names.
sim::Param renamed(const sim::Param &param, const char *key)
{
    sim::Param p = param;
    p.key = key;
    return p;
}

QFormLayout *section(QVBoxLayout *layout, const QString &title)
{
    auto *box = new QGroupBox(title);
    auto *form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addWidget(box);
    return form;
}

} // namespace

PropertiesPanel::PropertiesPanel(Document *document, QWidget *parent)
    : QScrollArea(parent)
    , mDocument(document)
{
    setWidgetResizable(true);
    connect(document, &Document::selectionChanged, this, [this] { rebuild(); });
    connect(document, &Document::changed, this, [this](const ChangeEvent &event) {
        if (event.type == ChangeEvent::Type::Reset || structureKey() != mStructure)
            rebuild();
        else if (event.type == ChangeEvent::Type::Domain)
            refresh(Section::Domain);
        else if (event.type == ChangeEvent::Type::Simulation)
            refresh(Section::Simulation);
        else if (event.touchesItem(mIndex))
            refresh(Section::Item);
    });
    // Keyed values follow the current frame; key buttons the changed values too.
    connect(document->animation(), &AnimationState::frameChanged, this,
            [this] { refresh(Section::Keyed); });
    connect(document->animation(), &AnimationState::changedValuesChanged, this,
            [this] { refresh(Section::Keyed); });
    rebuild();
}

std::string PropertiesPanel::structureKey() const
{
    const int index = mDocument->selectedItem();
    // The dimension and scheme too: only 2D scenes have the liquid texture section, only sph
    // scenes the liquid's.
    std::string key = std::to_string(index) + "/" + std::to_string(mDocument->scene().items.size())
                      + "/" + toString(mDocument->scene().domain.dimension) + "/"
                      + sim::toString(mDocument->scene().simulation.params.scheme);
    if (index >= 0) {
        const Item &it = mDocument->scene().items[std::size_t(index)];
        key += '/';
        // Drag's strength has its own range.
        for (int part : {int(it.kind), int(it.shape.type), int(it.force.type)})
            key += std::to_string(part);
    }
    return key;
}

std::vector<int> PropertiesPanel::editTargets(bool sameShape) const
{
    std::vector<int> targets{mIndex};
    const std::vector<Item> &items = mDocument->scene().items;
    for (int index : mDocument->selectedItems()) {
        const Item &other = items[std::size_t(index)];
        if (index != mIndex && other.kind == item().kind
            && (!sameShape || other.shape.type == item().shape.type))
            targets.push_back(index);
    }
    return targets;
}

void PropertiesPanel::rebuild()
{
    for (auto &section : mRefreshers)
        section.clear();
    mIndex = mDocument->selectedItem();
    if (mIndex >= int(mDocument->scene().items.size()))
        mIndex = -1;
    mStructure = structureKey();
    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    if (mIndex >= 0) {
        mBuilding = Section::Item;
        buildItem(layout);
    }
    mBuilding = Section::Domain;
    buildDomain(layout);
    mBuilding = Section::Simulation;
    buildSimulation(layout);
    if (mDocument->scene().domain.dimension == Dimension::TwoD)
        buildLiquidTexture(layout);
    if (mDocument->scene().simulation.params.scheme == sim::Scheme::Sph)
        buildSph(layout);
    layout->addStretch(1);
    // The previous form goes later, not now: an edit in one of its editors (a force field's
    // type) can rebuild the panel while that editor is still emitting its signal.
    if (QWidget *previous = takeWidget()) {
        previous->hide();
        previous->setParent(nullptr);
        previous->deleteLater();
    }
    setWidget(content);
    for (Section s : {Section::Item, Section::Domain, Section::Simulation})
        refresh(s);
}

void PropertiesPanel::refresh(Section section)
{
    if (mIndex >= int(mDocument->scene().items.size())) {
        rebuild();
        return;
    }
    mRefreshing = true;
    for (const auto &f : mRefreshers[std::size_t(section)])
        f();
    if (section == Section::Item)
        for (const auto &f : mRefreshers[std::size_t(Section::Keyed)])
            f();
    mRefreshing = false;
}

void PropertiesPanel::buildItem(QVBoxLayout *layout)
{
    const int i = mIndex;
    QFormLayout *form = section(layout, "Item");
    if (const std::size_t selected = mDocument->selectedItems().size(); selected > 1) {
        QLabel *note = addNote(form, "Selected", [this, selected] {
            return QString("%1 items; edits apply to %2 (same kind)")
                .arg(selected)
                .arg(editTargets(false).size());
        });
        note->setObjectName("selectionNote");
        note->setWordWrap(true);
    }
    addText(
        form, "Name", [this] { return QString::fromStdString(item().name); },
        [this, i](QString name) {
        const std::string n = name.trimmed().toStdString();
        if (!n.empty() && !mDocument->scene().findItem(n))
            push<values::ItemName>(i, n);
        });
    addBool(
        form, "Enabled", [this] { return item().enabled; },
        [this](bool on) { editSelected<values::ItemEnabled>([on](bool &x) { x = on; }); });
    addChoice(
        form, "Kind", names(kItemKindNames), [this] { return int(item().kind); },
        [this](int k) {
        editSelected<values::ItemKindValue>([k](ItemKind &x) { x = ItemKind(k); });
        });
    addDouble(
        form, "Active from (frame)", [this] { return item().activeStart; },
        [this](double v) { editSelected<values::ItemActiveStart>([v](double &x) { x = v; }); },
        itemParams::activeStart);
    sim::Param activeEndRange = itemParams::activeEnd;
    activeEndRange.softMin = -1; // the editor's "forever"
    addDouble(
        form, "Active to (frame, -1 = forever)",
        [this] { return std::isinf(item().activeEnd) ? -1.0 : item().activeEnd; },
        [this](double v) {
        editSelected<values::ItemActiveEnd>([v](double &x) { x = v < 0 ? kForever : v; });
        },
        activeEndRange);
    // Placement: offset, and rotation and scale of the shape about its pivot.
    addKeyed(form, "Offset", AnimProperty::Offset, itemParams::offset);
    addKeyed(form, "Rotation (deg)", AnimProperty::Rotation,
             renamed(itemParams::rotation, "itemRotation"));
    addKeyed(form, "Scale", AnimProperty::Scale, renamed(itemParams::scale, "itemScale"));

    QFormLayout *shape = section(layout, "Shape");
    auto setShape = [this](auto edit) {
        return [this, edit](auto v) {
            editSelected<values::ItemShape>([&](plume::Shape &s) { edit(s, v); });
        };
    };
    switch (item().shape.type) {
    case ShapeType::Sphere:
        addVec(
            shape, "Centre", [this] { return item().shape.centre; },
            setShape([](plume::Shape &s, sim::Vec3 v) { s.centre = v; }), 3, shapeParams::centre);
        addDouble(
            shape, "Radius", [this] { return item().shape.radius; },
            setShape([](plume::Shape &s, double v) { s.radius = float(v); }), shapeParams::radius);
        break;
    case ShapeType::Box:
        addVec(
            shape, "Centre", [this] { return item().shape.centre; },
            setShape([](plume::Shape &s, sim::Vec3 v) { s.centre = v; }), 3, shapeParams::centre);
        addVec(
            shape, "Half size", [this] { return item().shape.halfSize; },
            setShape([](plume::Shape &s, sim::Vec3 v) { s.halfSize = v; }), 3,
            shapeParams::halfSize);
        addDouble(
            shape, "Rotation (deg)", [this] { return item().shape.rotation; },
            setShape([](plume::Shape &s, double v) { s.rotation = float(v); }),
            shapeParams::rotation);
        break;
    case ShapeType::Capsule:
        addVec(
            shape, "Start", [this] { return item().shape.start; },
            setShape([](plume::Shape &s, sim::Vec3 v) { s.start = v; }), 3, shapeParams::start);
        addVec(
            shape, "End", [this] { return item().shape.end; },
            setShape([](plume::Shape &s, sim::Vec3 v) { s.end = v; }), 3, shapeParams::end);
        addDouble(
            shape, "Radius", [this] { return item().shape.radius; },
            setShape([](plume::Shape &s, double v) { s.radius = float(v); }), shapeParams::radius);
        break;
    case ShapeType::Stroke:
        addNote(shape, "Points", [this] { return QString::number(item().shape.points.size()); });
        addDouble(
            shape, "Radius (all points)",
            [this] { return item().shape.points.empty() ? 0.0 : item().shape.points[0].radius; },
            setShape([](plume::Shape &s, double v) {
                for (StrokePoint &p : s.points)
                    p.radius = float(v);
            }),
            strokeParams::radius);
        addDouble(
            shape, "Pressure (all points)",
            [this] { return item().shape.points.empty() ? 0.0 : item().shape.points[0].pressure; },
            setShape([](plume::Shape &s, double v) {
                for (StrokePoint &p : s.points)
                    p.pressure = float(v);
            }),
            strokeParams::pressure);
        break;
    case ShapeType::Image:
        addText(
            shape, "File", [this] { return QString::fromStdString(item().shape.file); },
            setShape([](plume::Shape &s, QString v) { s.file = v.toStdString(); }));
        addVec(
            shape, "Min", [this] { return item().shape.imageMin; },
            setShape([](plume::Shape &s, sim::Vec3 v) { s.imageMin = v; }), 2,
            shapeParams::imageMin);
        addVec(
            shape, "Max", [this] { return item().shape.imageMax; },
            setShape([](plume::Shape &s, sim::Vec3 v) { s.imageMax = v; }), 2,
            shapeParams::imageMax);
        addChoice(
            shape, "Channel", names(kImageChannelNames),
            [this] { return int(item().shape.channel); },
            setShape([](plume::Shape &s, int v) { s.channel = ImageChannel(v); }));
        addBool(
            shape, "Invert", [this] { return item().shape.invert; },
            setShape([](plume::Shape &s, bool v) { s.invert = v; }));
        break;
    case ShapeType::Everywhere:
        addNote(shape, "Region", [] { return QString("the whole domain"); });
        break;
    case ShapeType::Mesh: buildMesh(shape); break;
    }

    if (item().kind == ItemKind::Obstacle) {
        QFormLayout *f = section(layout, "Obstacle");
        addBool(
            f, "No-slip (drags the fluid along)", [this] { return item().obstacle.noSlip; },
            [this](bool on) {
            editSelected<values::ItemObstacle>([on](ObstacleSettings &o) { o.noSlip = on; });
            });
    }

    if (item().kind == ItemKind::Emitter) {
        QFormLayout *f = section(layout, "Emitter");
        auto setE = [this](auto edit) {
            return [this, edit](auto v) {
                editSelected<values::ItemEmitter>([&](EmitterSettings &e) { edit(e, v); });
            };
        };
        addDouble(
            f, "Density /s", [this] { return item().emitter.density; },
            setE([](EmitterSettings &e, double v) { e.density = float(v); }),
            emitterParams::density);
        addDouble(
            f, "Temperature /s", [this] { return item().emitter.temperature; },
            setE([](EmitterSettings &e, double v) { e.temperature = float(v); }),
            emitterParams::temperature);
        addVec(
            f, "Dye /s", [this] { return item().emitter.dye; },
            setE([](EmitterSettings &e, sim::Vec3 v) { e.dye = v; }), 3, emitterParams::dye);
        addDouble(
            f, "Fuel /s", [this] { return item().emitter.fuel; },
            setE([](EmitterSettings &e, double v) { e.fuel = float(v); }), emitterParams::fuel);
        addBool(
            f, "Fuel ignites", [this] { return item().emitter.ignite; },
            setE([](EmitterSettings &e, bool v) { e.ignite = v; }));
        addChoice(
            f, "Velocity mode", names(sim::kEmitterVelocityNames),
            [this] { return int(item().emitter.velocityMode); },
            setE([](EmitterSettings &e, int v) { e.velocityMode = sim::EmitterVelocity(v); }));
        addChoice(
            f, "Liquid (sph)", names(sim::kLiquidModeNames),
            [this] { return int(item().emitter.liquid); },
            setE([](EmitterSettings &e, int v) { e.liquid = sim::LiquidMode(v); }));
        addVec(
            f, "Velocity", [this] { return item().emitter.velocity; },
            setE([](EmitterSettings &e, sim::Vec3 v) { e.velocity = v; }), 3,
            emitterParams::velocity);
        addKeyed(f, "Rate", AnimProperty::EmitterRate, emitterParams::rate);
        // A noisy source (docs/look.md): the rates times max(0, 1 + amplitude * noise).
        namespace np = emitterNoiseParams;
        addKeyed(f, "Noise amplitude", AnimProperty::EmitterNoiseAmplitude,
                 renamed(np::amplitude, "noiseAmplitude"));
        addDouble(
            f, "Noise size", [this] { return item().emitter.noise.size; },
            setE([](EmitterSettings &e, double v) { e.noise.size = float(v); }),
            renamed(np::size, "noiseSize"));
        addDouble(
            f, "Noise speed", [this] { return item().emitter.noise.speed; },
            setE([](EmitterSettings &e, double v) { e.noise.speed = float(v); }),
            renamed(np::speed, "noiseSpeed"));
        addInt(
            f, "Noise seed", [this] { return int(item().emitter.noise.seed); },
            setE([](EmitterSettings &e, int v) { e.noise.seed = std::uint32_t(v); }),
            renamed(np::seed, "noiseSeed"));
    } else if (item().kind == ItemKind::ForceField) {
        QFormLayout *f = section(layout, "Force");
        auto setF = [this](auto edit) {
            return [this, edit](auto v) {
                editSelected<values::ItemForce>([&](ForceSettings &e) { edit(e, v); });
            };
        };
        // Shredding acts where the flame is: choosing it for a field without a mask gives the
        // field a temperature mask (docs/look.md), in the same undo step.
        addChoice(
            f, "Type", names(sim::kForceTypeNames), [this] { return int(item().force.type); },
            setF([](ForceSettings &e, int v) {
                e.type = sim::ForceType(v);
                if (e.type == sim::ForceType::Shredding && !e.mask.active())
                    e.mask = shreddingDefaultMask();
            }));
        addKeyed(f, "Strength", AnimProperty::ForceStrength,
                 item().force.type == sim::ForceType::Drag ? forceParams::dragStrength
                                                           : forceParams::strength);
        addVec(
            f, "Direction", [this] { return item().force.direction; },
            setF([](ForceSettings &e, sim::Vec3 v) { e.direction = v; }), 3,
            forceParams::direction);
        addVec(
            f, "Centre", [this] { return item().force.centre; },
            setF([](ForceSettings &e, sim::Vec3 v) { e.centre = v; }), 3, forceParams::centre);
        addDouble(
            f, "Scale", [this] { return item().force.scale; },
            setF([](ForceSettings &e, double v) { e.scale = float(v); }), forceParams::scale);
        addDouble(
            f, "Time scale", [this] { return item().force.timeScale; },
            setF([](ForceSettings &e, double v) { e.timeScale = float(v); }),
            forceParams::timeScale);
        addDouble(
            f, "Falloff", [this] { return item().force.falloff; },
            setF([](ForceSettings &e, double v) { e.falloff = float(v); }), forceParams::falloff);
        addMask(
            f, "Mask", "mask", [this] { return item().force.mask; },
            [this](const sim::ControlMask &m) {
            editSelected<values::ItemForce>([&](ForceSettings &e) { e.mask = m; });
            });
    }
}

// A mesh: its file (typed, or picked with Browse...), what it is (closed or a shell), the
// model's own transform, fill and shell thickness.
void PropertiesPanel::buildMesh(QFormLayout *form)
{
    const int i = mIndex;
    auto setShape = [this](auto edit) {
        return [this, edit](auto v) {
            editSelected<values::ItemShape>([&](plume::Shape &s) { edit(s, v); });
        };
    };
    // The path over a Browse... button: side by side, the button would scroll out of a
    // narrow panel.
    auto *row = new QWidget;
    auto *v = new QVBoxLayout(row);
    v->setContentsMargins(0, 0, 0, 0);
    auto *file = new QLineEdit;
    file->setObjectName("meshFile");
    auto *browse = new QPushButton("Browse...");
    browse->setObjectName("meshBrowse");
    v->addWidget(file);
    v->addWidget(browse, 0, Qt::AlignLeft);
    form->addRow("File", row);
    row->setToolTip(propertyTip(form, "File"));
    auto get = [this] { return QString::fromStdString(item().shape.file); };
    mRefreshers[std::size_t(mBuilding)].push_back([file, get] {
        const QSignalBlocker block(file);
        file->setText(get());
    });
    connect(file, &QLineEdit::editingFinished, this, [this, i, file] {
        if (mRefreshing || file->text().trimmed().isEmpty())
            return;
        plume::Shape s = item().shape;
        s.file = file->text().trimmed().toStdString();
        push<values::ItemShape>(i, s);
    });
    connect(browse, &QPushButton::clicked, this, [this, i] {
        QStringList patterns;
        for (const std::string &suffix : meshFileSuffixes())
            patterns << "*." + QString::fromStdString(suffix);
        const std::string current = resolveImagePath(item().shape.file,
                                                     mDocument->scene().directory);
        const QString path = QFileDialog::getOpenFileName(
            this, "Model File", QFileInfo(QString::fromStdString(current)).absolutePath(),
            QString("Models (%1);;All files (*)").arg(patterns.join(' ')));
        if (!path.isEmpty())
            setMeshFile(i, path);
    });
    QLabel *status = addNote(form, "Model",
                             [this] { return meshStatus(mDocument->scene(), item().shape); });
    status->setObjectName("meshStatus");
    status->setWordWrap(true);
    addVec(
        form, "Translation", [this] { return item().shape.meshTranslation; },
        setShape([](plume::Shape &s, sim::Vec3 v) { s.meshTranslation = v; }), 3,
        renamed(shapeParams::meshTranslation, "meshTranslation"));
    addVec(
        form, "Rotation (deg)", [this] { return item().shape.meshRotation; },
        setShape([](plume::Shape &s, sim::Vec3 v) { s.meshRotation = v; }), 3,
        renamed(shapeParams::meshRotation, "meshRotation"));
    addVec(
        form, "Scale", [this] { return item().shape.meshScale; },
        setShape([](plume::Shape &s, sim::Vec3 v) { s.meshScale = v; }), 3,
        renamed(shapeParams::meshScale, "meshScale"));
    addChoice(
        form, "Fill", names(kMeshFillNames), [this] { return int(item().shape.fill); },
        setShape([](plume::Shape &s, int v) { s.fill = MeshFill(v); }));
    addDouble(
        form, "Thickness", [this] { return item().shape.thickness; },
        setShape([](plume::Shape &s, double v) { s.thickness = float(v); }),
        shapeParams::thickness);
}

bool PropertiesPanel::setMeshFile(int index, const QString &path)
{
    if (const auto loaded = loadMesh(QFileInfo(path).absoluteFilePath().toStdString()); !loaded) {
        QMessageBox box(QMessageBox::Critical, "Cannot use model",
                        QString::fromStdString(loaded.error()), QMessageBox::Ok, this);
        box.setObjectName("errorDialog");
        box.exec();
        return false;
    }
    plume::Shape s = mDocument->scene().items[std::size_t(index)].shape;
    s.file = scenePathOf(mDocument->scene(), path);
    push<values::ItemShape>(index, s);
    return true;
}

void PropertiesPanel::buildDomain(QVBoxLayout *layout)
{
    QFormLayout *f = section(layout, "Domain");
    auto domain = [this] { return mDocument->scene().domain; };
    auto setD = [this](auto edit) {
        return [this, edit](auto v) {
            DomainSettings d = mDocument->scene().domain;
            edit(d, v);
            push<values::SceneDomain>(-1, d);
        };
    };
    addText(
        f, "Scene name", [this] { return QString::fromStdString(mDocument->scene().name); },
        [this](QString v) {
        if (!v.trimmed().isEmpty())
            push<values::SceneName>(-1, v.trimmed().toStdString());
        });
    addChoice(
        f, "Dimension", names(kDimensionNames), [domain] { return int(domain().dimension); },
        setD([](DomainSettings &d, int v) { d.dimension = Dimension(v); }));
    addVec(
        f, "Size", [domain] { return domain().size; },
        setD([](DomainSettings &d, sim::Vec3 v) { d.size = v; }), 3, domainParams::size);
    addVec(
        f, "Origin", [domain] { return domain().origin; },
        setD([](DomainSettings &d, sim::Vec3 v) { d.origin = v; }), 3, domainParams::origin);
    addInt(
        f, "Resolution", [domain] { return domain().resolution; },
        setD([](DomainSettings &d, int v) { d.resolution = v; }), domainParams::resolution);
    addChoice(
        f, "Preview", names(kPreviewResolutionNames), [domain] { return int(domain().preview); },
        setD([](DomainSettings &d, int v) { d.preview = PreviewResolution(v); }));
    for (int face = 0; face < 6; ++face)
        addChoice(
            f, QString("Boundary %1").arg(kFaces[face]), names(sim::kBoundaryNames),
            [domain, face] { return int(domain().boundaries[std::size_t(face)]); },
            setD([face](DomainSettings &d, int v) {
                d.boundaries[std::size_t(face)] = sim::Boundary(v);
            }));
}

void PropertiesPanel::buildSimulation(QVBoxLayout *layout)
{
    QFormLayout *f = section(layout, "Simulation");
    auto s = [this] { return mDocument->scene().simulation; };
    auto setS = [this](auto edit) {
        return [this, edit](auto v) {
            SimulationSettings x = mDocument->scene().simulation;
            edit(x, v);
            push<values::SceneSimulation>(-1, x);
        };
    };
    using S = SimulationSettings;
    addChoice(
        f, "Scheme", names(sim::kSchemeNames), [s] { return int(s().params.scheme); },
        setS([](S &x, int v) { x.params.scheme = sim::Scheme(v); }));
    addDouble(
        f, "Frame rate", [s] { return s().time.frameRate; },
        setS([](S &x, double v) { x.time.frameRate = float(v); }), sim::timeParams::frameRate);
    addInt(
        f, "Substeps", [s] { return s().time.substeps; },
        setS([](S &x, int v) { x.time.substeps = v; }), sim::timeParams::substeps);
    addDouble(
        f, "CFL (0 = fixed substeps)", [s] { return s().time.cfl; },
        setS([](S &x, double v) { x.time.cfl = float(v); }), sim::timeParams::cfl);
    addInt(
        f, "Max substeps", [s] { return s().time.maxSubsteps; },
        setS([](S &x, int v) { x.time.maxSubsteps = v; }), sim::timeParams::maxSubsteps);
    addInt(
        f, "Frame start", [s] { return s().frameStart; },
        setS([](S &x, int v) { x.frameStart = v; }), simulationParams::frameStart);
    addInt(
        f, "Frame end", [s] { return s().frameEnd; }, setS([](S &x, int v) { x.frameEnd = v; }),
        simulationParams::frameEnd);
    addInt(
        f, "Seed", [s] { return int(s().seed); },
        setS([](S &x, int v) { x.seed = std::uint32_t(v); }), simulationParams::seed);
    addDouble(
        f, "Viscosity", [s] { return s().params.viscosity; },
        setS([](S &x, double v) { x.params.viscosity = float(v); }), sim::simParams::viscosity);
    addDouble(
        f, "Diffusion", [s] { return s().params.diffusion; },
        setS([](S &x, double v) { x.params.diffusion = float(v); }), sim::simParams::diffusion);
    addDouble(
        f, "Density dissipation", [s] { return s().params.densityDissipation; },
        setS([](S &x, double v) { x.params.densityDissipation = float(v); }),
        sim::simParams::densityDissipation);
    addDouble(
        f, "Temperature dissipation", [s] { return s().params.temperatureDissipation; },
        setS([](S &x, double v) { x.params.temperatureDissipation = float(v); }),
        sim::simParams::temperatureDissipation);
    addDouble(
        f, "Velocity dissipation", [s] { return s().params.velocityDissipation; },
        setS([](S &x, double v) { x.params.velocityDissipation = float(v); }),
        sim::simParams::velocityDissipation);
    addVec(
        f, "Up", [s] { return s().params.up; }, setS([](S &x, sim::Vec3 v) { x.params.up = v; }), 3,
        sim::simParams::up);
    addDouble(
        f, "Ambient temperature", [s] { return s().params.ambientTemperature; },
        setS([](S &x, double v) { x.params.ambientTemperature = float(v); }),
        sim::simParams::ambientTemperature);
    addDouble(
        f, "Buoyancy (density)", [s] { return s().params.buoyancyDensity; },
        setS([](S &x, double v) { x.params.buoyancyDensity = float(v); }),
        sim::simParams::buoyancyDensity);
    addDouble(
        f, "Buoyancy (temperature)", [s] { return s().params.buoyancyTemperature; },
        setS([](S &x, double v) { x.params.buoyancyTemperature = float(v); }),
        sim::simParams::buoyancyTemperature);
    addDouble(
        f, "Vorticity", [s] { return s().params.vorticity; },
        setS([](S &x, double v) { x.params.vorticity = float(v); }), sim::simParams::vorticity);
    addDouble(
        f, "Vorticity length", [s] { return s().params.vorticityLength; },
        setS([](S &x, double v) { x.params.vorticityLength = float(v); }),
        sim::simParams::vorticityLength);
    addMask(
        f, "Vorticity mask", "vorticityMask", [s] { return s().params.vorticityMask; },
        [setS](const sim::ControlMask &m) {
        setS([](S &x, const sim::ControlMask &v) { x.params.vorticityMask = v; })(m);
        });
    addChoice(
        f, "Advection", names(sim::kAdvectionOrderNames), [s] { return int(s().params.advection); },
        setS([](S &x, int v) { x.params.advection = sim::AdvectionOrder(v); }));
    addChoice(
        f, "Velocity advection", names(sim::kAdvectionOrderNames),
        [s] { return int(s().params.velocityAdvection); },
        setS([](S &x, int v) { x.params.velocityAdvection = sim::AdvectionOrder(v); }));
    addBool(
        f, "Accounting density", [s] { return s().params.accountingDensity; },
        setS([](S &x, bool v) { x.params.accountingDensity = v; }));
    addBool(
        f, "Adaptive domain", [s] { return s().params.adaptiveDomain; },
        setS([](S &x, bool v) { x.params.adaptiveDomain = v; }));
    addDouble(
        f, "Pressure tolerance", [s] { return s().params.pressure.tolerance; },
        setS([](S &x, double v) { x.params.pressure.tolerance = v; }),
        sim::simParams::pressureTolerance);
    addInt(
        f, "Pressure max iterations", [s] { return s().params.pressure.maxIterations; },
        setS([](S &x, int v) { x.params.pressure.maxIterations = v; }),
        sim::simParams::pressureMaxIterations);
    addBool(
        f, "Multigrid", [s] { return s().params.pressure.multigrid; },
        setS([](S &x, bool v) { x.params.pressure.multigrid = v; }));
    addInt(
        f, "Stam iterations", [s] { return s().params.stamIterations; },
        setS([](S &x, int v) { x.params.stamIterations = v; }), sim::simParams::stamIterations);
    addChoice(
        f, "Stam sweep", names(sim::kSweepOrderNames), [s] { return int(s().params.stamSweep); },
        setS([](S &x, int v) { x.params.stamSweep = sim::SweepOrder(v); }));
    addChoice(
        f, "Stam numbers", names(sim::kStamNumericNames),
        [s] { return int(s().params.stamNumeric); },
        setS([](S &x, int v) { x.params.stamNumeric = sim::StamNumeric(v); }));

    // Combustion (smoke scheme; docs/fire.md): acts where emitters emit fuel.
    QFormLayout *c = section(layout, "Combustion");
    namespace cp = sim::combustionParams;
    using C = sim::CombustionSettings;
    auto combustion = [](float C::*member) {
        return [member](S &x, double v) { x.params.combustion.*member = float(v); };
    };
    for (auto [label, member, param] :
         {std::tuple{"Ignition temperature", &C::ignitionTemperature, &cp::ignitionTemperature},
          {"Burn rate /s", &C::burnRate, &cp::burnRate},
          {"Heat release", &C::heatRelease, &cp::heatRelease},
          {"Smoke per fuel", &C::smokePerFuel, &cp::smokePerFuel},
          {"Flame cooling /s", &C::flameCooling, &cp::flameCooling},
          {"Expansion", &C::expansion, &cp::expansion}})
        addDouble(
            c, label, [s, member = member] { return s().params.combustion.*member; },
            setS(combustion(member)), *param);

    // Upres (smoke scheme; docs/upres.md): fine fields with sub-grid turbulence.
    QFormLayout *u = section(layout, "Upres");
    namespace up = sim::upresParams;
    addInt(
        u, "Upres factor", [s] { return s().params.upres.factor; },
        setS([](S &x, int v) { x.params.upres.factor = v; }), renamed(up::factor, "upresFactor"));
    using U = sim::UpresSettings;
    auto upres = [](float U::*member) {
        return [member](S &x, double v) { x.params.upres.*member = float(v); };
    };
    // Named apart from the domain's size and the items' strength (editors are named by key).
    for (auto [label, member, param] :
         {std::tuple{"Upres strength", &U::strength, renamed(up::strength, "upresStrength")},
          {"Upres noise size", &U::size, renamed(up::size, "upresSize")},
          {"Upres lifetime s", &U::lifetime, renamed(up::lifetime, "upresLifetime")}})
        addDouble(
            u, label, [s, member = member] { return s().params.upres.*member; },
            setS(upres(member)), param);

    // Ocean (ocean scheme; docs/ocean.md): the wave spectrum and the loop.
    QFormLayout *o = section(layout, "Ocean");
    namespace op = sim::oceanParams;
    using O = sim::OceanSettings;
    auto ocean = [](float O::*member) {
        return [member](S &x, double v) { x.params.ocean.*member = float(v); };
    };
    for (auto [label, member, param] : {std::tuple{"Wind speed m/s", &O::windSpeed, &op::windSpeed},
                                        {"Wind direction", &O::windDirection, &op::windDirection},
                                        {"Amplitude", &O::amplitude, &op::amplitude},
                                        {"Small waves m", &O::smallWaves, &op::smallWaves},
                                        {"Choppiness", &O::choppiness, &op::choppiness},
                                        {"Loop period s", &O::loopPeriod, &op::loopPeriod},
                                        {"Gravity m/s2", &O::gravity, &op::gravity}})
        addDouble(
            o, label, [s, member = member] { return s().params.ocean.*member; },
            setS(ocean(member)), *param);
    addInt(
        o, "Wave seed", [s] { return int(s().params.ocean.seed); },
        setS([](S &x, int v) { x.params.ocean.seed = std::uint32_t(v); }),
        renamed(op::seed, "oceanSeed"));
}

} // namespace plume
