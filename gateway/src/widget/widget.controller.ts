import { routes } from '@irp/proto';
import { Controller } from '@nestjs/common';
import { Route } from '../routing/route';
import { Widget, WidgetContext } from './widget-context';

/** The public widget API: what a client website's widget shows about its stock. */
@Controller()
export class WidgetController {
  @Route(routes.stocks.widgetStock)
  stock(@Widget() widget: WidgetContext) {
    return widget.stock;
  }
}
