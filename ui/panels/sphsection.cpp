// SPDX-License-Identifier: Apache-2.0
// The properties panel's "Liquid (sph)" section (docs/sph.md): the sph scheme's particle size,
// equation of state, viscosity, surface tension and limits. Every change is one undo step on
// the scene's simulation settings.
#include <ui/panels/propertiespanel.h>

#include <QFormLayout>
#include <QGroupBox>
#include <QVBoxLayout>

#include <string>
#include <tuple>
#include <type_traits>

namespace plume {

void PropertiesPanel::buildSph(QVBoxLayout *layout)
{
    auto *box = new QGroupBox("Liquid (sph)");
    box->setObjectName("sphSection");
    auto *form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addWidget(box);
    auto sph = [this] { return mDocument->scene().simulation.params.sph; };
    using L = sim::SphSettings;
    auto set = [this](auto member) {
        return [this, member](auto v) {
            SimulationSettings x = mDocument->scene().simulation;
            x.params.sph
                .*member = static_cast<std::remove_reference_t<decltype(x.params.sph.*member)>>(v);
            push<values::SceneSimulation>(-1, x);
        };
    };
    namespace sp = sim::sphParams;
    // Keys prefixed "sph" for the editors' object names (the scheme-wide viscosity has its own).
    static const std::string keys[] = {"sphRestDensity",    "sphSoundSpeed",
                                       "sphViscosity",      "sphArtificialViscosity",
                                       "sphSurfaceTension", "sphSpacing",
                                       "sphSmoothing",      "sphCourant",
                                       "sphGravity"};
    int n = 0;
    for (auto [label, member, param] :
         {std::tuple{"Rest density", &L::restDensity, &sp::restDensity},
          {"Sound speed (stiffness)", &L::soundSpeed, &sp::soundSpeed},
          {"Viscosity", &L::viscosity, &sp::viscosity},
          {"Artificial viscosity", &L::artificialViscosity, &sp::artificialViscosity},
          {"Surface tension", &L::surfaceTension, &sp::surfaceTension},
          {"Spacing (cells)", &L::spacing, &sp::spacing},
          {"Kernel radius (spacings)", &L::smoothing, &sp::smoothing},
          {"Time step safety", &L::courant, &sp::courant},
          {"Gravity", &L::gravity, &sp::gravity}}) {
        sim::Param named = *param;
        named.key = keys[n++].c_str();
        addDouble(
            form, label, [sph, member = member] { return double(sph().*member); }, set(member),
            named);
    }
    sim::Param most = sp::maxParticles;
    most.key = "sphMaxParticles";
    addInt(
        form, "Max particles", [sph] { return sph().maxParticles; }, set(&L::maxParticles), most);
}

} // namespace plume
