// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/document/keyframes.h>
#include <ui/document/undocommands.h>

#include <QScrollArea>

#include <array>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

class QFormLayout;
class QLabel;
class QVBoxLayout;

namespace plume {

/// Edits every parameter of the selected item, the domain and the simulation. Each editor is a
/// getter and a setter; the setter pushes a ChangeValue command and never touches the scene.
/// The editors refresh from Document::changed, each section only on the edits that concern it
/// (the selected item's, the domain's, the simulation's); the form is rebuilt only when the
/// selection or the item's structure (kind, shape type) changes, so focus survives ordinary edits.
/// Keyframable properties show their value at the current frame with a key button beside them
/// (AnimationState); a frame change refreshes them.
class PropertiesPanel : public QScrollArea
{
    Q_OBJECT

public:
    explicit PropertiesPanel(Document *document, QWidget *parent = nullptr);

    /// Points mesh item `index` at the model file `path` (Browse...), stored relative to the
    /// scene's folder (scenePathOf), as one undo step. A file that cannot be read shows why
    /// and changes nothing. Returns whether the file was taken.
    bool setMeshFile(int index, const QString &path);
    /// Gives the scene the liquid texture image `path` (stored relative to the scene's folder),
    /// as one undo step. An image that cannot be read shows why and changes nothing.
    bool setLiquidTextureFile(const QString &path);

private:
    /// The panel's sections, each refreshed only by the edits that concern it. `Keyed`: the
    /// item's keyframable editors, refreshed with the item and on a frame change too (so a
    /// frame change during playback never resets a name being typed).
    enum class Section { Item, Domain, Simulation, Keyed };

    void rebuild();
    void refresh(Section section);
    std::string structureKey() const;
    const Item &item() const { return mDocument->scene().items[std::size_t(mIndex)]; }

    template<class Trait>
    void push(int index, typename Trait::Value value)
    {
        if (Trait::get(mDocument->scene(), index) == value)
            return;
        mDocument->undoStack()->push(new ChangeValue<Trait>(mDocument, index, std::move(value)));
    }

    /// The items an edit of the shown item applies to: the shown (current) item, then the other
    /// selected items of its kind (`sameShape`: and of its shape type), Maya-style.
    std::vector<int> editTargets(bool sameShape) const;
    /// Applies `edit` (on a Trait::Value) to the value of every edit target, as one undo step.
    template<class Trait, class Edit>
    void editSelected(Edit edit)
    {
        std::vector<std::pair<int, typename Trait::Value>> changes;
        for (int index : editTargets(std::is_same_v<Trait, values::ItemShape>)) {
            typename Trait::Value value = Trait::get(mDocument->scene(), index);
            edit(value);
            if (!(value == Trait::get(mDocument->scene(), index)))
                changes.emplace_back(index, std::move(value));
        }
        if (changes.empty())
            return;
        QUndoStack *stack = mDocument->undoStack();
        if (changes.size() > 1)
            stack->beginMacro(QString("%1 (%2 Items)").arg(Trait::text()).arg(changes.size()));
        for (auto &[index, value] : changes)
            stack->push(new ChangeValue<Trait>(mDocument, index, std::move(value)));
        if (changes.size() > 1)
            stack->endMacro();
    }

    void buildItem(QVBoxLayout *layout);
    void buildMesh(QFormLayout *form);
    void buildDomain(QVBoxLayout *layout);
    void buildSimulation(QVBoxLayout *layout);
    void buildLiquidTexture(QVBoxLayout *layout); // texturesection.cpp
    void buildSph(QVBoxLayout *layout);           // sphsection.cpp

    // Editors: a label, a getter and a setter.
    void addDouble(QFormLayout *form, const QString &label, std::function<double()> get,
                   std::function<void(double)> set, const sim::Param &range);
    void addInt(QFormLayout *form, const QString &label, std::function<int()> get,
                std::function<void(int)> set, const sim::Param &range);
    void addBool(QFormLayout *form, const QString &label, std::function<bool()> get,
                 std::function<void(bool)> set);
    void addChoice(QFormLayout *form, const QString &label, const QStringList &choices,
                   std::function<int()> get, std::function<void(int)> set);
    void addText(QFormLayout *form, const QString &label, std::function<QString()> get,
                 std::function<void(QString)> set);
    void addVec(QFormLayout *form, const QString &label, std::function<sim::Vec3()> get,
                std::function<void(sim::Vec3)> set, int components, const sim::Param &range);
    /// A keyframable property: its value at the current frame and a key button
    /// (keyedsection.cpp).
    void addKeyed(QFormLayout *form, const QString &label, AnimProperty property,
                  const sim::Param &range);
    QLabel *addNote(QFormLayout *form, const QString &label, std::function<QString()> get);
    /// The wheel turns the editor's value only while it has focus (propertyeditors.cpp).
    void guardWheel(QWidget *editor);
    /// A control mask's field, from, to and ramp, labelled "<label>", "<label> from", ...;
    /// `set` receives only valid masks (masksection.cpp).
    void addMask(QFormLayout *form, const QString &label, const char *objectPrefix,
                 std::function<sim::ControlMask()> get,
                 std::function<void(const sim::ControlMask &)> set);

    Document *mDocument;
    QObject *mWheelGuard = nullptr; ///< the editors' wheel filter, made on first use
    int mIndex = -1;
    std::string mStructure;
    std::array<std::vector<std::function<void()>>, 4> mRefreshers; ///< per Section
    Section mBuilding = Section::Item; ///< the section the editors being added belong to
    bool mRefreshing = false;
};

} // namespace plume
