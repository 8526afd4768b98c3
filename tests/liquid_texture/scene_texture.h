// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QObject>

/// Scene keys, bake exports and loop seams of liquid textures (scene_texture.cpp).
class TestLiquidTextureScene : public QObject
{
    Q_OBJECT

private slots:
    void keysRoundTrip();
    void badKeysNameThePath_data();
    void badKeysNameThePath();
    void threeDIsRefused();
    void saveAsRebasesThePath();
    void bakeWritesTextureFlipbookAndFlowMap();
    void uniformFlowMapIsUniform();
    void loopSeamIsNoLargerThanAFrame();
    void unsteadyLoopWithFullCrossfade();
};
