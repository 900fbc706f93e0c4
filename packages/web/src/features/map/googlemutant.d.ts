declare module 'leaflet.gridlayer.googlemutant' {
  import { GridLayer, type GridLayerOptions } from 'leaflet';

  export interface GoogleMutantOptions extends GridLayerOptions {
    type?: 'roadmap' | 'satellite' | 'terrain' | 'hybrid';
  }

  /** A Leaflet grid layer drawn by the maps service's own map (leaflet.gridlayer.googlemutant). */
  export default class GoogleMutant extends GridLayer {
    constructor(options?: GoogleMutantOptions);
  }
}
